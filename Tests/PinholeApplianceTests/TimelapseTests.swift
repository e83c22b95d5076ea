// Timelapse on virtual time: the wall-clock grid, no drift, durable resume, missed slots, lock, window.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeField
import PinholeSim
import PinholeSystem
import XCTest
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

final class TimelapseTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        var template = Array("/tmp/pinhole-timelapse-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    override func tearDown() {
        for name in FileSystem.list(FilePath(directory)) { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    private var stateFile: String { directory + "/timelapse.toml" }

    /// A rig with the lens set by hand: contrast AF's viewfinder reads would make hours of
    /// virtual time slow to simulate, and the schedule does not depend on focus.
    private func fixedFocusRig(loop: EventLoop? = nil, specs: [SimCameraSpec]? = nil) throws -> ApplianceRig {
        var camera = ApplianceRig.smallBack
        camera.frameDuration = .milliseconds(100)  // the HQ camera's full-resolution rate
        let rig = try ApplianceRig(loop: loop, specs: specs ?? [camera])
        try rig.appliance.engine.focus.setLens(0.5)
        rig.loop.advance(by: .milliseconds(200))
        return rig
    }

    /// Saved captures, in order.
    private func savedCaptures(_ rig: ApplianceRig) -> () -> [CaptureResult] {
        var saved: [CaptureResult] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { saved.append(capture) } }
        return { saved }
    }

    /// The appliance owns its timelapse, which reaches the appliance only weakly (through
    /// `UnattendedShooting`): dropping the appliance frees both, even mid-run.
    func testTheApplianceAndItsRunningTimelapseAreReleasedTogether() throws {
        weak var appliance: Appliance?
        weak var timelapse: TimelapseController?
        do {
            let rig = try fixedFocusRig()
            let running = TimelapseController(appliance: rig.appliance, stateFile: nil)
            rig.appliance.timelapse = running
            try running.start(TimelapsePlan(intervalMs: 10_000, count: 10))
            rig.loop.advance(by: .seconds(25))
            XCTAssertEqual(running.status().taken, 2)
            XCTAssertTrue(running.status().running)
            appliance = rig.appliance
            timelapse = running
        }
        XCTAssertNil(appliance, "the appliance outlived its last owner: a reference cycle keeps it")
        XCTAssertNil(timelapse, "the timelapse outlived the appliance that owns it")
    }

    func testAThousandShotsAtTenSecondsEachWithinOneFramePeriodOfItsSlot() throws {
        // The HQ camera's full-resolution rate, about 10 frames a second.
        var camera = ApplianceRig.smallBack
        camera.frameDuration = .milliseconds(100)
        let rig = try fixedFocusRig(specs: [camera])
        let saved = savedCaptures(rig)
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        try timelapse.start(TimelapsePlan(intervalMs: 10_000, count: 1000))
        rig.loop.advance(by: .seconds(10 * 1001 + 5))
        let shots = saved()
        XCTAssertEqual(shots.count, 1000)
        XCTAssertFalse(timelapse.status().running)
        XCTAssertEqual(timelapse.finished?.taken, 1000)
        XCTAssertEqual(timelapse.finished?.missed, 0)
        XCTAssertNil(timelapse.state)
        let period = camera.frameDuration
        var previousSlot: Int64?
        for shot in shots {
            let wall = rig.loop.wallTime(at: shot.frame.sensorTimestamp)
            let pressed = rig.loop.wallTime(at: shot.pressedAt)
            // The press is the slot itself: whole multiples of 10 s on the wall clock.
            XCTAssertEqual(pressed.nanoseconds, 0)
            XCTAssertEqual(pressed.secondsSince1970 % 10, 0)
            if let previousSlot { XCTAssertEqual(pressed.secondsSince1970 - previousSlot, 10) }
            previousSlot = pressed.secondsSince1970
            let offset = abs(
                (wall.secondsSince1970 - pressed.secondsSince1970) * 1_000_000_000
                    + Int64(wall.nanoseconds) - Int64(pressed.nanoseconds))
            XCTAssertLessThan(offset, period.nanoseconds, "shot at \(wall.iso8601) is off its slot")
            XCTAssertNotEqual(shot.selection, .afterWake)
        }
    }

    func testTheGridIsAlignedToTheWallClockWhateverTheStartTime() throws {
        // Start at 12:00:03.7 local: a 1 min timelapse shoots at 12:01:00, 12:02:00 …
        let loop = EventLoop.virtual(
            wallStart: WallTime(
                secondsSince1970: 1_767_268_803, nanoseconds: 700_000_000, utcOffsetSeconds: 3600))
        let rig = try fixedFocusRig(loop: loop)
        let saved = savedCaptures(rig)
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        let status = try timelapse.start(TimelapsePlan(intervalMs: 60_000, count: 3))
        XCTAssertEqual(status.next, "2026-01-01T13:01:00.000+01:00")
        loop.advance(by: .seconds(200))
        XCTAssertEqual(
            saved().map { loop.wallTime(at: $0.pressedAt).iso8601 },
            [
                "2026-01-01T13:01:00.000+01:00", "2026-01-01T13:02:00.000+01:00",
                "2026-01-01T13:03:00.000+01:00",
            ])
    }

    func testARunResumesAfterPowerLossCountingMissedSlotsWithoutACatchUpBurst() throws {
        let loop = EventLoop.virtual()
        var rig: ApplianceRig? = try fixedFocusRig(loop: loop)
        var timelapse: TimelapseController? = TimelapseController(
            appliance: rig!.appliance, stateFile: FilePath(stateFile))
        try timelapse!.start(TimelapsePlan(intervalMs: 10_000, count: 20, album: "fence"))
        loop.advance(by: .seconds(45))  // shots at 10, 20, 30, 40 s
        XCTAssertEqual(timelapse!.state?.taken, 4)
        XCTAssertTrue(FileSystem.exists(FilePath(stateFile)))
        // Power loss: no stop, the process is simply gone.
        rig!.appliance.shutdown()
        timelapse = nil
        rig = nil
        loop.advance(by: .seconds(60))  // off from 45 s to 105 s: slots 50 … 100 pass
        let again = try fixedFocusRig(loop: loop)
        let saved = savedCaptures(again)
        let resumed = TimelapseController(appliance: again.appliance, stateFile: FilePath(stateFile))
        let message = try XCTUnwrap(resumed.resume())
        XCTAssertTrue(message.contains("6 slots missed"), message)
        XCTAssertEqual(resumed.state?.taken, 4)
        XCTAssertEqual(resumed.state?.missed, 6)
        XCTAssertEqual(resumed.state?.plan.album, "fence")
        loop.advance(by: .seconds(4))  // 109 s: nothing shot late
        XCTAssertEqual(saved().count, 0)
        loop.advance(by: .seconds(2))  // the 110 s slot
        XCTAssertEqual(saved().count, 1)
        XCTAssertEqual(loop.wallTime(at: saved()[0].pressedAt).secondsSince1970 % 10, 0)
        loop.advance(by: .seconds(200))
        XCTAssertEqual(resumed.finished?.taken, 14)
        XCTAssertEqual(resumed.finished?.missed, 6)
        XCTAssertFalse(FileSystem.exists(FilePath(stateFile)), "an ended run leaves no state to resume")
    }

    func testADamagedStateFileIsReportedAndNothingResumes() throws {
        let rig = try fixedFocusRig()
        for text in [
            "interval_ms = 5\nnext_slot = 1\n", "garbage ===", "interval_ms = 10000\n", "\u{0}\u{1}",
        ] {
            XCTAssertNoThrow(try DurableFiles.write(Array(text.utf8), to: FilePath(stateFile), replace: true))
            let timelapse = TimelapseController(appliance: rig.appliance, stateFile: FilePath(stateFile))
            let message = try XCTUnwrap(timelapse.resume())
            XCTAssertTrue(message.contains("not resumed"), message)
            XCTAssertTrue(message.contains(stateFile), message)
            XCTAssertNil(timelapse.state)
        }
    }

    func testLockKeepsTheFirstShotsExposureAndStopRestoresAuto() throws {
        let rig = try fixedFocusRig()
        let saved = savedCaptures(rig)
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        try timelapse.start(TimelapsePlan(intervalMs: 5_000, lock: true))
        rig.loop.advance(by: .seconds(6))
        XCTAssertEqual(saved().count, 1)
        let first = saved()[0].frame
        rig.cameras.world.setLux(first.lux.map { $0 / 20 } ?? 20)  // much darker
        rig.loop.advance(by: .seconds(10))
        XCTAssertEqual(saved().count, 3)
        for shot in saved().dropFirst() {
            XCTAssertEqual(shot.frame.exposureTime.nanoseconds / 1000, first.exposureTime.nanoseconds / 1000)
            XCTAssertEqual(shot.frame.analogueGain, max(1, first.analogueGain), accuracy: 1e-9)
        }
        try timelapse.stop()
        XCTAssertFalse(rig.appliance.engine.exposure.isManual)
    }

    func testWithoutLockExposureFollowsTheLight() throws {
        let rig = try fixedFocusRig()
        let saved = savedCaptures(rig)
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        try timelapse.start(TimelapsePlan(intervalMs: 5_000))
        rig.loop.advance(by: .seconds(6))
        let first = saved()[0].frame
        rig.cameras.world.setLux(first.lux.map { $0 / 20 } ?? 20)
        rig.loop.advance(by: .seconds(5))
        XCTAssertGreaterThan(
            saved()[1].frame.exposureTime.nanoseconds * 1000 / 1000, first.exposureTime.nanoseconds)
    }

    func testOnlySlotsInsideTheDailyWindowAreShotOrCounted() throws {
        // 2026-01-01 12:00 UTC; window 12:01-12:02 with 20 s slots: 12:01:00, :20, :40.
        let rig = try fixedFocusRig()
        let saved = savedCaptures(rig)
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        try timelapse.start(
            TimelapsePlan(
                intervalMs: 20_000, window: DailyWindow(fromMinute: 12 * 60 + 1, toMinute: 12 * 60 + 2)))
        rig.loop.advance(by: .seconds(300))
        XCTAssertEqual(
            saved().map { rig.loop.wallTime(at: $0.pressedAt).iso8601 },
            [
                "2026-01-01T12:01:00.000+00:00", "2026-01-01T12:01:20.000+00:00",
                "2026-01-01T12:01:40.000+00:00",
            ])
        XCTAssertEqual(timelapse.status().missed, 0)
        XCTAssertEqual(timelapse.status().next, "2026-01-02T12:01:00.000+00:00")
    }

    func testButtonsKeepWorkingDuringATimelapse() throws {
        let rig = try fixedFocusRig()
        let saved = savedCaptures(rig)
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        try timelapse.start(TimelapsePlan(intervalMs: 10_000, count: 3))
        rig.loop.advance(by: .seconds(3))
        rig.hold(.shutter)
        rig.loop.advance(by: .milliseconds(100))
        rig.release(.shutter)
        rig.loop.advance(by: .seconds(40))
        XCTAssertEqual(saved().count, 4)
        XCTAssertEqual(timelapse.finished?.taken, 3)
        XCTAssertEqual(timelapse.finished?.missed, 0)
    }

    func testACaptureThatFailsCountsAsMissedAndIsReported() throws {
        let rig = try fixedFocusRig()
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        var notes: [String] = []
        timelapse.onEvent = { notes.append($0) }
        try timelapse.start(TimelapsePlan(intervalMs: 10_000, count: 2))
        rig.cameras.world.deadCameras.insert(ApplianceRig.smallBack.id)
        rig.loop.advance(by: .seconds(40))
        XCTAssertEqual(timelapse.finished?.taken, 0)
        XCTAssertEqual(timelapse.finished?.missed, 2)
        XCTAssertTrue(notes.contains { $0.contains("missed a slot: the capture failed") }, "\(notes)")
    }

    func testDurationsAndBadPlansAreRejected() {
        XCTAssertEqual(TimelapsePlan.parseDuration("10"), 10_000)
        XCTAssertEqual(TimelapsePlan.parseDuration("2.5s"), 2_500)
        XCTAssertEqual(TimelapsePlan.parseDuration("5m"), 300_000)
        XCTAssertEqual(TimelapsePlan.parseDuration("1h"), 3_600_000)
        for bad in [
            "", "s", "-5", "1e3", "5x", ".5", "5.", "1.2.3", "nan", "inf", "٣s", "10 s", "99999999999h",
        ] {
            XCTAssertNil(TimelapsePlan.parseDuration(bad), bad)
        }
        XCTAssertThrowsError(try TimelapsePlan(intervalMs: 500).validate())
        XCTAssertThrowsError(try TimelapsePlan(intervalMs: 86_400_001).validate())
        XCTAssertThrowsError(try TimelapsePlan(intervalMs: 10_000, count: 0).validate())
        XCTAssertThrowsError(try TimelapsePlan(intervalMs: 10_000, album: "a\"b").validate())
        XCTAssertNil(DailyWindow.minute("24:00"))
        XCTAssertNil(DailyWindow.minute("7:00"))
        XCTAssertEqual(DailyWindow.minute("07:30"), 450)
    }

    func testASecondStartIsRefusedAndLeavesTheFirstRunning() throws {
        let rig = try fixedFocusRig()
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        try timelapse.start(TimelapsePlan(intervalMs: 10_000))
        XCTAssertThrowsError(try timelapse.start(TimelapsePlan(intervalMs: 5_000))) {
            XCTAssertEqual($0 as? TimelapseError, .alreadyRunning)
        }
        XCTAssertEqual(timelapse.state?.plan.intervalMs, 10_000)
        try timelapse.stop()
        XCTAssertThrowsError(try timelapse.stop())
    }
}
