// Camera standby on virtual time: idle → not streaming; presses, slots and the viewfinder wake it.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeField
import PinholeSim
import XCTest

final class StandbyTests: XCTestCase {
    private let latency: Duration = .milliseconds(180)

    private func rig() throws -> ApplianceRig {
        let rig = try ApplianceRig(specs: [ApplianceRig.smallBack.startingAfter(latency)])
        try rig.appliance.engine.focus.setLens(0.5)
        rig.appliance.standby.after = .seconds(60)
        return rig
    }

    func testTheCameraStopsStreamingAfterTheIdleTimeAndAPressWakesItWithItsCost() throws {
        let rig = try rig()
        var saved: [CaptureResult] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { saved.append(capture) } }
        rig.loop.advance(by: .seconds(59))
        XCTAssertFalse(rig.appliance.engine.isInStandby)
        rig.loop.advance(by: .seconds(2))
        XCTAssertTrue(rig.appliance.engine.isInStandby)
        let frames = rig.appliance.engine.framesReceived
        rig.loop.advance(by: .seconds(30))
        XCTAssertEqual(rig.appliance.engine.framesReceived, frames, "no frames while in standby")
        XCTAssertTrue(rig.appliance.status().standby ?? false)

        let pressedAt = rig.loop.now
        rig.hold(.shutter)
        rig.loop.advance(by: .milliseconds(80))
        rig.release(.shutter)
        rig.loop.advance(by: .seconds(1))
        XCTAssertFalse(rig.appliance.engine.isInStandby)
        let photo = try XCTUnwrap(saved.first)
        XCTAssertEqual(photo.selection, .afterWake)
        // The first frame starts exposing `latency` after the wake and arrives a period later.
        XCTAssertEqual(photo.wakeCost, latency + ApplianceRig.smallBack.frameDuration)
        XCTAssertEqual(photo.metadata.wakeCost, photo.wakeCost, "the wake cost is recorded on the photo")
        XCTAssertEqual(photo.metadata.pressToExposure, photo.pressToExposure)
        XCTAssertTrue(
            photo.journalText.contains(
                "exposure began \(PressLagText.relativeToPress(photo.pressToExposure))"))
        XCTAssertGreaterThanOrEqual(photo.frame.sensorTimestamp, pressedAt + latency)
        XCTAssertEqual(rig.appliance.standby.lastWakeReason, "shutter")
        XCTAssertEqual(
            rig.appliance.status().lastWakeMs, (latency + ApplianceRig.smallBack.frameDuration).milliseconds)
    }

    func testAHalfPressWakesTheCameraAndUseRestartsTheIdleTime() throws {
        let rig = try rig()
        rig.loop.advance(by: .seconds(61))
        XCTAssertTrue(rig.appliance.engine.isInStandby)
        rig.hold(.halfPress)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertFalse(rig.appliance.engine.isInStandby)
        rig.release(.halfPress)
        rig.loop.advance(by: .seconds(59))
        XCTAssertFalse(rig.appliance.engine.isInStandby, "the idle time counts from the last use")
        rig.loop.advance(by: .seconds(2))
        XCTAssertTrue(rig.appliance.engine.isInStandby)
    }

    func testATimelapseSlotWakesTheCameraAheadSoItsShotIsOnTheGrid() throws {
        let rig = try rig()
        rig.appliance.standby.after = .seconds(5)
        var saved: [CaptureResult] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { saved.append(capture) } }
        let timelapse = TimelapseController(appliance: rig.appliance, stateFile: nil)
        rig.appliance.timelapse = timelapse
        try timelapse.start(TimelapsePlan(intervalMs: 60_000, count: 3))
        rig.loop.advance(by: .seconds(30))
        XCTAssertTrue(rig.appliance.engine.isInStandby, "asleep between slots")
        rig.loop.advance(by: .seconds(200))
        XCTAssertEqual(saved.count, 3)
        for shot in saved {
            XCTAssertNotEqual(shot.selection, .afterWake, "woken before the slot, not by it")
            XCTAssertEqual(rig.loop.wallTime(at: shot.pressedAt).secondsSince1970 % 60, 0)
            XCTAssertLessThan(
                shot.frame.sensorTimestamp - shot.pressedAt, ApplianceRig.smallBack.frameDuration)
        }
        XCTAssertEqual(timelapse.finished?.missed, 0)
        XCTAssertTrue(rig.appliance.engine.isInStandby)
    }

    func testNoStandbyWithoutTheSetting() throws {
        let rig = try rig()
        rig.appliance.standby.after = nil
        rig.loop.advance(by: .seconds(3600))
        XCTAssertFalse(rig.appliance.engine.isInStandby)
    }
}
