// Tests of change observers: details for watched queries, cancellation.

import Foundation
import PinholeCore
import Synchronization
import XCTest

@testable import PinholeLibrary

/// Collects change details delivered to an observer.
final class DetailsRecorder: Sendable {
    private let received = Mutex<[ChangeDetails]>([])
    var all: [ChangeDetails] { received.withLock { $0 } }
    var handler: @Sendable (ChangeDetails) -> Void {
        { [self] details in received.withLock { $0.append(details) } }
    }
}

final class ObservationTests: LibraryTestCase {
    func testAddNotifiesObserversOfMatchingQueriesOnly() throws {
        let library = try openLibrary()
        let all = DetailsRecorder(), front = DetailsRecorder()
        let allToken = library.observe(.all, all.handler)
        let frontToken = library.observe(AssetQuery.all.filter(.camera("front")), front.handler)
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata(camera: "back"))
        XCTAssertEqual(all.all.map(\.insertedIDs), [[asset.id]])
        XCTAssertTrue(front.all.isEmpty)
        allToken.cancel()
        _ = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata(camera: "front"))
        XCTAssertEqual(all.all.count, 1)
        XCTAssertEqual(front.all.count, 1)
        withExtendedLifetime(frontToken) {}
    }

    func testReleasingTheTokenStopsTheObservation() throws {
        let library = try openLibrary()
        let recorder = DetailsRecorder()
        var token: ObservationToken? = library.observe(.all, recorder.handler)
        XCTAssertNotNil(token)
        token = nil
        _ = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        XCTAssertTrue(recorder.all.isEmpty)
    }

    /// Why the library's tracker stays (and GRDB's region observation or a ValueObservation of
    /// each query's ids would not do): a favorite toggle leaves All Photos' ids as they were,
    /// yet its view must redraw that photo; only the rows the transaction touched, judged
    /// before and after, give the exact details. The cost side: `make bench SECTIONS=library`
    /// (refetch-and-diff against the tracker).
    func testAFavoriteToggleIsAChangeInAllPhotosThatItsIdsCannotShow() throws {
        let library = try openLibrary()
        let photo = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let all = DetailsRecorder(), favorites = DetailsRecorder()
        let tokens = [
            library.observe(.all, all.handler),
            library.observe(library.query(for: .favorites), favorites.handler),
        ]
        let before = try library.assetIDs(.all)
        try library.setFavorite([photo.id], true)
        XCTAssertEqual(try library.assetIDs(.all), before, "the ids of All Photos did not change")
        XCTAssertEqual(all.all.map(\.changedIDs), [[photo.id]], "but its photo did")
        XCTAssertEqual(all.all.map(\.insertedIDs), [[]])
        XCTAssertEqual(favorites.all.map(\.insertedIDs), [[photo.id]])
        withExtendedLifetime(tokens) {}
    }
}
