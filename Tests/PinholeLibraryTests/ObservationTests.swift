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

final class ObservationTests: XCTestCase {
    func testAddNotifiesObserversOfMatchingQueriesOnly() throws {
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary.open(at: dir.path, now: ManualWallClock().now)
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
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary.open(at: dir.path, now: ManualWallClock().now)
        let recorder = DetailsRecorder()
        var token: ObservationToken? = library.observe(.all, recorder.handler)
        XCTAssertNotNil(token)
        token = nil
        _ = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        XCTAssertTrue(recorder.all.isEmpty)
    }
}
