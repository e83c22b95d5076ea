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
}
