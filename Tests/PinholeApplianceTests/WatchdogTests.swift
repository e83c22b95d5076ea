// The camera watchdog: a camera that stops sending frames is restarted, reported, and captures go on.

import PinholeAppliance
import PinholeCore
import PinholeSim
import XCTest

final class WatchdogTests: XCTestCase {
    func testAStalledCameraIsRestartedAndReported() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(300))
        let camera = rig.camera
        XCTAssertEqual(camera.starts, 1)
        rig.world.stallCameras([camera.spec.id])
        rig.loop.advance(by: .milliseconds(900))
        XCTAssertEqual(camera.starts, 1, "not before the timeout")
        rig.loop.advance(by: .milliseconds(500))
        XCTAssertEqual(camera.starts, 2, "stopped and started again")
        XCTAssertEqual(rig.engine.watchdog.stalls, 1)
        XCTAssertTrue(
            rig.appliance.problems.contains { $0.contains("restarted") }, "\(rig.appliance.problems)")
        let frames = rig.engine.framesReceived
        rig.loop.advance(by: .seconds(2))
        XCTAssertGreaterThan(rig.engine.framesReceived, frames)
        XCTAssertEqual(
            rig.gpio.history.filter { $0.line == rig.errorLine && $0.value }.count, 4, "error code 4")
        XCTAssertEqual(rig.appliance.status().cameraRestarts, 1)
    }

    func testAPressDuringAStallIsServedByTheRestartedCamera() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(300))
        rig.world.stallCameras([rig.camera.spec.id])
        rig.loop.advance(by: .milliseconds(200))
        let result = try rig.capture()
        XCTAssertEqual(result.selection, .nextAfterPress)
        XCTAssertEqual(rig.camera.starts, 2)
    }

    func testLongExposuresAreNotMistakenForAStall() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setExposure(.manual(time: .milliseconds(900), gain: 1))
        rig.loop.advance(by: .seconds(6))
        XCTAssertEqual(rig.engine.watchdog.stalls, 0)
        XCTAssertEqual(rig.camera.starts, 1)
    }

    func testADeadCameraIsRetriedWithBackoffAndRecoversWhenItComesBack() throws {
        let rig = try CaptureTestRig()
        try rig.engine.focus.setMode(.manual)  // no AF scans: this test is about time, not pixels
        let id = rig.camera.spec.id
        rig.world.deadCameras.insert(id)
        rig.loop.advance(by: .milliseconds(4900))
        XCTAssertEqual(rig.engine.watchdog.stalls, 0, "a starting camera gets 5 s")
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(rig.engine.watchdog.stalls, 1)
        rig.loop.advance(by: .seconds(9))
        XCTAssertEqual(rig.engine.watchdog.stalls, 1, "the next try waits twice as long")
        rig.loop.advance(by: .seconds(2))
        XCTAssertEqual(rig.engine.watchdog.stalls, 2)
        rig.world.deadCameras.remove(id)
        let frames = rig.engine.framesReceived
        rig.loop.advance(by: .seconds(30))
        XCTAssertGreaterThan(rig.engine.framesReceived, frames, "frames flow again")
        XCTAssertEqual(rig.engine.watchdog.stalls, 2, "and the watchdog is satisfied")
        rig.world.stallCameras([id])
        rig.loop.advance(by: .milliseconds(1500))
        XCTAssertEqual(rig.engine.watchdog.stalls, 3, "back to the ordinary timeout once frames came back")
    }

    func testASlowCameraIsNotMistakenForAStalledOne() throws {
        var slow = CaptureTestRig.small(.back)
        slow.frameDuration = .milliseconds(600)  // like vimc under emulation
        let rig = try CaptureTestRig(specs: [slow])
        rig.loop.advance(by: .seconds(20))
        XCTAssertEqual(rig.engine.watchdog.stalls, 0)
        XCTAssertGreaterThan(rig.engine.framesReceived, 25)
    }
}
