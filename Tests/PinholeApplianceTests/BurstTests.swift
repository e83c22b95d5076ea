// Bursts on the simulated board in virtual time: consecutive frames one period apart, the bound, storage falling behind.

import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

@testable import PinholeAppliance
@testable import PinholeCapture
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A store whose `store` waits until the test opens it: storage that cannot keep up.
final class GatedStore: PhotoStore, @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var open = false
    private var count = 0

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while !open { pthread_cond_wait(&condition, &mutex) }
        count += 1
        return SavedPhoto(id: "G\(count)", file: FilePath("/gated/G\(count).jpg"))
    }

    /// Holds the encoded bytes back too (until the gate opens), so that every shot stays in
    /// flight: what a store that cannot even take the file's bytes looks like.
    func write(metadata: PhotoMetadata, producing produce: (any ByteSink) throws -> Void) throws
        -> WrittenPhoto
    {
        pthread_mutex_lock(&mutex)
        while !open { pthread_cond_wait(&condition, &mutex) }
        pthread_mutex_unlock(&mutex)
        let sink = ByteArraySink()
        try produce(sink)
        return WrittenPhoto(bytes: sink.bytes, written: nil, metadata: metadata)
    }

    /// Lets every store through from now on.
    func openGate() {
        pthread_mutex_lock(&mutex)
        open = true
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    func photoCount() throws -> Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return count
    }

    func freeBytes() -> Int64? { 8 << 30 }
}

final class BurstTests: XCTestCase {
    func testABurstTakesConsecutiveFramesOneFramePeriodApart() throws {
        let rig = try ApplianceRig()
        try rig.appliance.engine.setExposure(.manual(time: .milliseconds(8), gain: 2))
        rig.loop.advance(by: .milliseconds(300))  // the manual exposure is in force
        var outcome: BurstOutcome?
        rig.appliance.captureBurst(count: 10) { outcome = try? $0.get() }
        rig.loop.advance(by: .seconds(1))
        let burst = try XCTUnwrap(outcome)
        XCTAssertEqual(burst.saved.count, 10)
        XCTAssertEqual(burst.report.taken, 10)
        XCTAssertEqual(burst.report.atFrameRate, 10)
        XCTAssertEqual(burst.report.framesSkipped, 0)
        XCTAssertNil(burst.report.storageNote)
        let sequences = burst.saved.map(\.frame.sequence)
        XCTAssertEqual(sequences, Array(sequences[0]..<(sequences[0] + 10)), "consecutive frames")
        let period = ApplianceRig.smallBack.frameDuration
        let starts = burst.saved.map(\.frame.sensorTimestamp)
        XCTAssertEqual(zip(starts.dropFirst(), starts).map { $0 - $1 }, Array(repeating: period, count: 9))
        XCTAssertEqual(burst.saved.first?.selection, .exposingAtPress)
        XCTAssertEqual(Set(burst.saved.dropFirst().map(\.selection)), [.burst])
        XCTAssertEqual(rig.store.photos.count, 10)
        XCTAssertEqual(rig.appliance.burstShotsTaken, 10)
        XCTAssertFalse(rig.appliance.isBusy)
    }

    func testWhenStorageCannotKeepUpTheBoundHoldsAndTheOutcomeSaysSo() throws {
        let gated = GatedStore()
        let rig = try ApplianceRig(photoStore: gated)
        rig.appliance.engine.maxFramesInFlight = 3
        rig.loop.virtualTimeWaitsForWork = false
        var outcome: BurstOutcome?
        rig.appliance.captureBurst(count: 6) { outcome = try? $0.get() }
        rig.loop.advance(by: .milliseconds(500))  // 15 frame periods; nothing can be stored
        XCTAssertEqual(rig.appliance.engine.currentBurstShots, 3, "no more than the bound is in flight")
        XCTAssertNil(outcome)
        gated.openGate()
        rig.loop.finishWork()
        rig.loop.advance(by: .milliseconds(500))
        rig.loop.virtualTimeWaitsForWork = true
        rig.loop.finishWork()
        let burst = try XCTUnwrap(outcome)
        XCTAssertEqual(burst.saved.count, 6, "no shot is dropped")
        XCTAssertEqual(burst.report.atFrameRate, 3)
        XCTAssertEqual(burst.report.framesSkipped, 12, "15 frames in 500 ms, 3 of them taken")
        XCTAssertEqual(
            burst.report.storageNote,
            "storage could not keep up: 3 of 6 shots at the frame rate, then \(burst.report.framesSkipped) frames "
                + "skipped: 12 while 3 photos were being encoded (`[capture] frames_in_flight`)")
        XCTAssertEqual(rig.appliance.burstSkipped, burst.report.framesSkipped)
        XCTAssertTrue(rig.appliance.problems.contains { $0.contains("storage could not keep up") })
    }

    func testABurstWhoseStorageHangsAnswersAtItsDeadlineAndItsShotsAreSavedLater() throws {
        let gated = GatedStore()
        let rig = try ApplianceRig(photoStore: gated)
        rig.appliance.engine.maxFramesInFlight = 4
        rig.appliance.engine.burstStoreDeadline = .seconds(2)
        rig.loop.virtualTimeWaitsForWork = false
        var saved: [String] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { saved.append(capture.photo.id) } }
        var outcome: BurstOutcome?
        rig.appliance.captureBurst(count: 3) { outcome = try? $0.get() }
        rig.loop.advance(by: .milliseconds(500))  // all three taken; storage answers nothing
        XCTAssertNil(outcome)
        rig.loop.advance(by: rig.appliance.engine.burstStoreDeadline - .milliseconds(600))
        XCTAssertNil(outcome, "not before the deadline")
        rig.loop.advance(by: .milliseconds(200))
        let burst = try XCTUnwrap(outcome, "the burst answers although storage hangs")
        XCTAssertEqual(burst.saved.count, 0)
        XCTAssertEqual(burst.pending, [1, 2, 3])
        XCTAssertEqual(
            burst.pendingNote,
            "storage has not answered 2s after the last shot: shots 1, 2, 3 still being stored; "
                + "each is announced (event saved) when storage answers, none is dropped")
        XCTAssertTrue(rig.appliance.problems.contains { $0.contains("storage has not answered") })
        XCTAssertEqual(saved, [])

        gated.openGate()
        rig.loop.finishWork()
        rig.loop.virtualTimeWaitsForWork = true
        rig.loop.advance(by: .milliseconds(100))
        rig.loop.finishWork()
        XCTAssertEqual(saved, ["G1", "G2", "G3"], "no shot is dropped: each is announced once saved")
        XCTAssertEqual(try gated.photoCount(), 3)
        XCTAssertFalse(rig.appliance.engine.isBursting)
    }

    func testABurstThatStorageKeepsUpWithAnswersWithNothingPending() throws {
        let rig = try ApplianceRig()
        rig.appliance.engine.burstStoreDeadline = .seconds(1)
        var outcome: BurstOutcome?
        rig.appliance.captureBurst(count: 3) { outcome = try? $0.get() }
        rig.loop.advance(by: .seconds(2))
        let burst = try XCTUnwrap(outcome)
        XCTAssertEqual(burst.saved.count, 3)
        XCTAssertEqual(burst.pending, [])
        XCTAssertNil(burst.pendingNote)
        XCTAssertNil(burst.report.flashNote, "flash off: nothing to say")
    }

    func testWithTheFlashOnABurstSaysWhyItDidNotFire() throws {
        let rig = try ApplianceRig()
        try rig.appliance.engine.setFlashMode(.on)
        rig.loop.advance(by: .milliseconds(300))
        var outcome: BurstOutcome?
        rig.appliance.captureBurst(count: 3) { outcome = try? $0.get() }
        rig.loop.advance(by: .seconds(1))
        let burst = try XCTUnwrap(outcome)
        XCTAssertEqual(burst.saved.count, 3)
        XCTAssertEqual(burst.saved.map(\.flashFired), [false, false, false])
        XCTAssertEqual(
            burst.report.flashNote,
            "the flash did not fire: a burst takes every frame, and the flash needs its own settle "
                + "frames for each shot; take single shots for flash photos")
        let sequences = burst.saved.map(\.frame.sequence)
        XCTAssertEqual(sequences, Array(sequences[0]..<(sequences[0] + 3)), "still every frame")
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.hasPrefix("burst of 3: the flash did not fire") },
            "a held shutter's burst has no answer: the log says it")
    }

    func testHoldingTheShutterShootsEveryFrameUntilItIsLetGo() throws {
        let rig = try ApplianceRig()
        var saved: [CaptureResult] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { saved.append(capture) } }
        rig.hold(.shutter)
        rig.loop.advance(by: .milliseconds(1100))  // the hold is recognised at 800 ms
        rig.release(.shutter)
        rig.loop.advance(by: .milliseconds(300))
        // The press itself, then the burst: consecutive frames from the hold to the release.
        let burst = saved.dropFirst()
        XCTAssertGreaterThanOrEqual(burst.count, 8)
        let sequences = burst.map(\.frame.sequence)
        XCTAssertEqual(sequences, Array(sequences.first!..<(sequences.first! + UInt64(burst.count))))
        XCTAssertEqual(rig.appliance.burstShotsTaken, burst.count)
        XCTAssertFalse(rig.appliance.engine.isBursting)
        XCTAssertFalse(rig.appliance.isBusy)
    }
}
