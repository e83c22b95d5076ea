// The storage policy on the appliance: low-storage warning, recycle asks the store to make room, stop does not.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeField
import PinholeImaging
import PinholeSim
import XCTest

/// A memory store whose "recycling" frees a fixed amount per photo removed.
final class RecyclingStore: PhotoStore, StorageRecycling, @unchecked Sendable {
    let inner = MemoryStore()
    private let lock = NSLockLike()
    private var removable: Int
    private(set) var requests: [Int64] = []

    init(freeBytes: Int64, removable: Int) {
        inner.setFreeBytes(freeBytes)
        self.removable = removable
    }

    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto {
        let saved = try inner.store(jpeg: jpeg, metadata: metadata)
        inner.setFreeBytes((inner.freeBytes() ?? 0) - (4 << 20))
        return saved
    }
    func photoCount() throws -> Int { try inner.photoCount() }
    func freeBytes() -> Int64? { inner.freeBytes() }

    func recycle(untilFree bytes: Int64) throws -> [String] {
        lock.run {
            requests.append(bytes)
            var lines: [String] = []
            while (inner.freeBytes() ?? 0) < bytes, removable > 0 {
                removable -= 1
                inner.setFreeBytes((inner.freeBytes() ?? 0) + (4 << 20))
                lines.append("recycled old-\(removable)")
            }
            return lines
        }
    }
}

/// A tiny mutex for the test store.
final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func run<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}

final class StoragePolicyTests: XCTestCase {
    func testRecycleMakesRoomOnceUnderTheMarkAndLogsEachPhoto() throws {
        let store = RecyclingStore(freeBytes: 70 << 20, removable: 5)
        let rig = try ApplianceRig(store: MemoryStore(), start: false, photoStore: store)
        let appliance = rig.appliance
        appliance.lowStorageBytes = 64 << 20
        appliance.storagePolicy.whenFull = .recycle
        var notices: [String] = []
        appliance.observe { if case .notice(let text) = $0 { notices.append(text) } }
        try appliance.start()
        rig.loop.advance(by: .milliseconds(200))
        appliance.capture()
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(store.requests, [], "66 MB free: above the mark, nothing recycled")
        appliance.capture()
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(store.requests, [64 << 20])
        XCTAssertEqual(notices, ["recycled old-4"])
        XCTAssertEqual(appliance.status().recycled, 1)
        XCTAssertEqual(appliance.status().storageLow, false)
    }

    func testStopNeverRemovesAnythingAndTheWarningShows() throws {
        let store = RecyclingStore(freeBytes: 70 << 20, removable: 5)
        let rig = try ApplianceRig(store: MemoryStore(), start: false, photoStore: store)
        let appliance = rig.appliance
        appliance.lowStorageBytes = 64 << 20
        try appliance.start()
        rig.loop.advance(by: .milliseconds(200))
        for _ in 0..<3 {
            appliance.capture()
            rig.loop.advance(by: .milliseconds(200))
        }
        XCTAssertEqual(store.requests, [])
        XCTAssertEqual(appliance.status().storageLow, true)
        XCTAssertEqual(appliance.status().whenFull, "stop")
        XCTAssertEqual(appliance.indicator.statusState, .pattern(.slow), "the low-storage pattern")
    }

    func testARecordingCountsLikePhotosWhileItGrowsAndWhenSaved() throws {
        let store = RecyclingStore(freeBytes: 70 << 20, removable: 5)
        let rig = try ApplianceRig.recording(into: MemoryClipStore(), photoStore: store)
        let appliance = rig.appliance
        appliance.lowStorageBytes = 64 << 20
        appliance.storagePolicy.whenFull = .recycle
        var notices: [String] = []
        appliance.observe { if case .notice(let text) = $0 { notices.append(text) } }
        try appliance.startRecording()
        // The clip fills the card while it records: room is made before the reserve ends it.
        store.inner.setFreeBytes(60 << 20)
        rig.loop.advance(by: .seconds(6))
        XCTAssertEqual(store.requests, [64 << 20], "looked at while recording")
        XCTAssertEqual(notices, ["recycled old-4"])
        XCTAssertTrue(appliance.recorder?.isRecording ?? false, "the recording goes on")
        // And once more when it is saved.
        store.inner.setFreeBytes(60 << 20)
        try appliance.recorder?.stop { _ in }
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertEqual(store.requests, [64 << 20, 64 << 20], "looked at when the clip was saved")
        XCTAssertEqual(appliance.status().recycled, 2)
    }

    func testNothingLeftToRecycleIsReportedOnce() throws {
        let store = RecyclingStore(freeBytes: 60 << 20, removable: 0)
        let rig = try ApplianceRig(store: MemoryStore(), start: false, photoStore: store)
        let appliance = rig.appliance
        appliance.lowStorageBytes = 64 << 20
        appliance.storagePolicy.whenFull = .recycle
        try appliance.start()
        rig.loop.advance(by: .milliseconds(200))
        for _ in 0..<3 {
            appliance.capture()
            rig.loop.advance(by: .milliseconds(200))
        }
        XCTAssertEqual(appliance.problems.filter { $0.contains("nothing left to recycle") }.count, 1)
    }
}
