// Tests of the simulated camera's own AF, its torch light, and its libcamera-like exposure controls.

import PinholeCore
import PinholeSim
import XCTest

final class SimulatedCameraAutofocusTests: XCTestCase {
    private func open(_ spec: SimCameraSpec, world: SimWorld = SimWorld()) -> (
        EventLoop, SimulatedCamera, FrameLog
    ) {
        let loop = EventLoop.virtual()
        let provider = SimulatedCameraProvider(loop: loop, world: world, specs: [spec])
        let camera = try! provider.open(id: spec.id) as! SimulatedCamera
        let log = FrameLog()
        try! camera.start { frame in
            log.frames.append(frame)
            frame.release()
        }
        return (loop, camera, log)
    }

    func testTheIPAVariantScansOnTriggerAndReportsItsState() throws {
        let (loop, camera, log) = open(.backWithAutofocus)
        XCTAssertTrue(camera.info.hasAutofocusAlgorithm)
        try camera.setControls([
            "AfMode": .int(1),
            "AfWindows": .rectangles([NormalizedRect(x: 0.75, y: 0.65, width: 0.1, height: 0.1)]),
        ])
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.frames.last?.metadata.afState, 0, "idle until triggered")
        try camera.setControls(["AfTrigger": .int(0)])
        loop.advance(by: .milliseconds(70))
        XCTAssertEqual(log.frames.last?.metadata.afState, 1, "scanning (frames begun after the trigger)")
        loop.advance(by: .milliseconds(400))
        XCTAssertEqual(log.frames.last?.metadata.afState, 2, "focused")
        XCTAssertEqual(
            try XCTUnwrap(log.frames.last?.metadata.lensPosition), 2.5, accuracy: 1e-6, "the chart at 0.4 m")
    }

    func testTheTorchLightsWhatTheBackCameraSees() throws {
        let world = SimWorld()
        var lit = false
        world.torchIsLit = { lit }
        world.setLux(10)
        let (loop, camera, log) = open(.back, world: world)
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.frames.last?.metadata.lux, 10)
        lit = true
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.frames.last?.metadata.lux, 10 + world.torchLux)
        let (frontLoop, front, frontLog) = open(.front, world: world)
        frontLoop.advance(by: .milliseconds(100))
        XCTAssertEqual(
            frontLog.frames.last?.metadata.lux, 10, "the torch does not light the front camera's scene")
        withExtendedLifetime((camera, front)) {}
    }

    func testTurningAEOffHoldsWhatAEChoseLast() throws {
        let world = SimWorld()
        let (loop, camera, log) = open(.back, world: world)
        loop.advance(by: .milliseconds(300))
        try camera.setControls(["AeEnable": .bool(false)])
        // Controls take effect a few frames late: from then on, what AE chose last is held.
        loop.advance(by: .milliseconds(150))
        let chosen = try XCTUnwrap(log.frames.last?.metadata)
        XCTAssertEqual(chosen.controls["AeEnable"], .bool(false))
        world.setLux(20)
        loop.advance(by: .milliseconds(300))
        XCTAssertEqual(log.frames.last?.metadata.exposureTime, chosen.exposureTime)
        XCTAssertEqual(log.frames.last?.metadata.analogueGain, chosen.analogueGain)
    }

    func testLibcamera05ExposureModesFixTimeAndGainIndependently() throws {
        let (loop, camera, log) = open(.backWithAutofocus)
        XCTAssertThrowsError(
            try camera.setControls(["AeEnable": .bool(false)]), "0.5 cameras have no AeEnable")
        try camera.setControls(["ExposureTimeMode": .int(1), "ExposureTime": .int(5000)])
        loop.advance(by: .milliseconds(300))
        XCTAssertEqual(log.frames.last?.metadata.exposureTime, .microseconds(5000))
        try camera.setControls(["AnalogueGainMode": .int(1), "AnalogueGain": .double(4)])
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.frames.last?.metadata.analogueGain, 4)
    }
}
