// Tests of the tilt sensor: two tilt switches give the body rotation, written as EXIF orientation.

import PinholeAppliance
import PinholeBoard
import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

final class ButtonTiltTests: XCTestCase {
    private func captureOrientation(_ rig: ApplianceRig) -> Orientation? {
        rig.appliance.capture()
        rig.loop.advance(by: .milliseconds(100))
        return rig.store.photos.last?.orientation
    }

    func testTiltSwitchesGiveTheOrientationAtCaptureTime() throws {
        let rig = try ApplianceRig()
        XCTAssertEqual(captureOrientation(rig), .up)
        rig.gpio.drive(rig.line(.tiltA), active: true)
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(rig.appliance.tilt?.rotation, 90)
        XCTAssertEqual(captureOrientation(rig), .right)
        rig.gpio.drive(rig.line(.tiltB), active: true)
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(captureOrientation(rig), .down)
        rig.gpio.drive(rig.line(.tiltA), active: false)
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(captureOrientation(rig), .left)
    }

    func testMountRotationAndTiltAdd() throws {
        var board = try BuiltInBoards.simulated()
        let index = try XCTUnwrap(board.cameras.firstIndex { $0.match == "imx477" })
        board.cameras[index].mountRotation = 90
        let rig = try ApplianceRig(board: board)
        XCTAssertEqual(captureOrientation(rig), .right, "mount rotation alone")
        rig.gpio.drive(rig.line(.tiltA), active: true)
        rig.gpio.drive(rig.line(.tiltB), active: true)
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(captureOrientation(rig), .left, "90° mount + 180° body = 270°")
    }

    func testASwitchClosedBeforeStartIsReadNotMissed() throws {
        let loop = EventLoop.virtual()
        let board = try BuiltInBoards.simulated()
        let gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        gpio.drive(board.buttons[.tiltB]!.line, active: true)
        let rig = try ApplianceRig(board: board, gpio: gpio, loop: loop)
        XCTAssertEqual(rig.appliance.tilt?.rotation, 270)
        XCTAssertEqual(rig.events(.tiltB), [], "a state, not a press")
    }

    func testChatterShorterThanTheDebounceDoesNotTurnTheImage() throws {
        let rig = try ApplianceRig()
        for _ in 0..<5 {
            rig.gpio.drive(rig.line(.tiltA), active: true)
            rig.loop.advance(by: .milliseconds(20))
            rig.gpio.drive(rig.line(.tiltA), active: false)
            rig.loop.advance(by: .milliseconds(20))
        }
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertEqual(rig.appliance.tilt?.rotation, 0)
    }

    func testGPIOStatusReportsInputsOutputsAndTilt() throws {
        let rig = try ApplianceRig()
        try rig.appliance.setTorch(true)
        rig.hold(.halfPress)
        rig.gpio.drive(rig.line(.tiltA), active: true)
        rig.loop.advance(by: .milliseconds(200))
        let status = rig.appliance.gpioStatus()
        let half = try XCTUnwrap(status.inputs.first { $0.function == "half_press" })
        XCTAssertEqual(half.active, true)
        XCTAssertTrue(half.pressed)
        let shutter = try XCTUnwrap(status.inputs.first { $0.function == "shutter" })
        XCTAssertEqual(shutter.kernelDebounceMs, 0, "the shutter keeps its first-edge stamp")
        XCTAssertEqual(status.inputs.first { $0.function == "switch" }?.kernelDebounceMs, 10)
        XCTAssertEqual(status.outputs.first { $0.function == "torch" }?.on, true)
        XCTAssertEqual(status.outputs.first { $0.function == "capture" }?.showing, "on", "focus locked")
        XCTAssertEqual(status.tilt?.rotation, 90)
        XCTAssertEqual(status.orientation, 6)
        XCTAssertTrue(status.shutter.locked)
        XCTAssertEqual(status.chords.first?.buttons, ["shutter", "torch"])
    }
}
