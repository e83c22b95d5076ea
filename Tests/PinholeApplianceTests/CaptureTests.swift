// Captures on the simulated board: zero shutter lag from the button's edge time, and camera switching.

import PinholeAppliance
import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

final class CaptureTests: XCTestCase {
    func testZeroShutterLagKeepsTheFrameExposingAtThePress() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setExposure(.manual(time: .milliseconds(20), gain: 1))
        rig.loop.advance(by: .milliseconds(500))
        let exposing = try XCTUnwrap(rig.engine.lastFrame)
        let press = exposing.sensorTimestamp + .milliseconds(5)
        let result = try rig.capture(pressedAt: press)
        XCTAssertEqual(result.selection, .exposingAtPress)
        XCTAssertEqual(result.frame.sequence, exposing.sequence)
        XCTAssertTrue(result.frame.wasExposing(at: press))
    }

    func testAPressBetweenExposuresTakesTheNextFrameAndSaysSo() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setExposure(.manual(time: .milliseconds(10), gain: 1))
        rig.loop.advance(by: .milliseconds(500))
        let last = try XCTUnwrap(rig.engine.lastFrame)
        let press = last.sensorTimestamp + .milliseconds(20)  // exposure ended at +10, next starts at +33
        let result = try rig.capture(pressedAt: press)
        XCTAssertEqual(result.selection, .nextAfterPress)
        XCTAssertEqual(result.frame.sequence, last.sequence + 1)
        XCTAssertGreaterThanOrEqual(result.frame.sensorTimestamp, press)
    }

    func testTheShutterButtonsEdgeTimeSelectsTheFrame() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(400) + .microseconds(1234))
        let shutter = try XCTUnwrap(rig.board.buttons[.shutter]).line
        let pressedAt = rig.loop.now  // the first edge of the bouncy press
        _ = rig.gpio.press(shutter, hold: .milliseconds(80), bounce: 4)
        rig.loop.advance(by: .seconds(1))
        guard
            case .saved(let result)? = rig.events.last(where: { if case .saved = $0 { true } else { false } })
        else { return XCTFail("no photo saved: \(rig.events)") }
        XCTAssertEqual(result.pressedAt, pressedAt, "the first edge, not the debounced one")
        XCTAssertEqual(result.selection, .exposingAtPress)
        XCTAssertTrue(result.frame.wasExposing(at: pressedAt))
    }

    func testSwitchingCamerasKeepsTheSessionAliveAndTheTorchFollows() throws {
        let rig = try CaptureTestRig()
        try rig.appliance.setTorch(true)
        rig.loop.advance(by: .milliseconds(200))
        let front = try rig.appliance.switchCamera()
        XCTAssertEqual(front.model, "ov5647")
        XCTAssertFalse(rig.appliance.torchOn, "the front camera has no torch")
        XCTAssertEqual(rig.gpio.outputValue(rig.torchLine), false)
        let before = rig.engine.framesReceived
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertGreaterThan(rig.engine.framesReceived, before, "frames flow from the new camera")
        XCTAssertEqual(try rig.capture().cameraID, front.id)
        let back = try rig.appliance.switchCamera()
        XCTAssertEqual(back.model, "imx477")
        rig.loop.advance(by: .milliseconds(300))
        let result = try rig.capture()
        XCTAssertEqual(result.cameraID, back.id)
        XCTAssertEqual(try rig.exif(result).model, "imx477")
        XCTAssertEqual(rig.cameras.openCamera(back.id)?.isRunning, true)
    }
}
