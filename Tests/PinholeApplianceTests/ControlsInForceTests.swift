// A setting asked for before a press is in force for that photo: the simulated camera's control delay.

import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

@testable import PinholeAppliance
@testable import PinholeCapture

final class ControlsInForceTests: XCTestCase {
    func testAManualExposureThenAnImmediatePressGivesTheNewExposure() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(500))
        let before = try XCTUnwrap(rig.engine.lastFrame)
        XCTAssertNotEqual(before.exposureTime, .microseconds(4000))
        try rig.engine.setExposure(.manual(time: .microseconds(4000), gain: 2))
        let result = try rig.capture()
        XCTAssertEqual(result.selection, .controlsInForce)
        XCTAssertEqual(result.exposureTime, .microseconds(4000))
        XCTAssertEqual(result.gain, 2)
        XCTAssertGreaterThan(result.frame.sequence, before.sequence + 1, "the camera applies controls late")
        XCTAssertGreaterThan(result.pressToExposure, .zero, "the photo was exposed after the press")
        let exif = try rig.exif(result)
        XCTAssertEqual(exif.exposureTime, 0.004)
        XCTAssertEqual(exif.pressToExposure, result.pressToExposure, "the lag is recorded in EXIF")
        XCTAssertNil(exif.wakeCost, "the camera was streaming")
        XCTAssertEqual(exif.iso, 200)
        XCTAssertEqual(exif.manualExposure, true)
    }

    func testOnceTheChangeIsInEffectZeroShutterLagIsBack() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setExposure(.manual(time: .milliseconds(10), gain: 1))
        rig.loop.advance(by: .milliseconds(500))
        XCTAssertNil(rig.engine.machine.requirement, "confirmed by the frames since")
        let exposing = try XCTUnwrap(rig.engine.lastFrame)
        let result = try rig.capture(pressedAt: exposing.sensorTimestamp + .milliseconds(2))
        XCTAssertEqual(result.selection, .exposingAtPress)
        XCTAssertEqual(result.pressToExposure, .milliseconds(-2))
        XCTAssertTrue(
            result.journalText.contains("exposure began 2.0 ms before the press"), result.journalText)
        XCTAssertEqual(try rig.exif(result).pressToExposure, .milliseconds(-2))
    }

    func testEVWaitsUntilAutoExposureHasSettledOnIt() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(600))
        let before = try XCTUnwrap(rig.engine.lastFrame)
        try rig.engine.setEV(2)
        let result = try rig.capture()
        XCTAssertEqual(result.selection, .controlsInForce)
        XCTAssertEqual(result.frame.controls["ExposureValue"], .double(2))
        let ratio =
            (result.exposureTime.seconds * result.gain) / (before.exposureTime.seconds * before.totalGain)
        XCTAssertGreaterThan(ratio, 3, "two stops brighter (4×), AE settled")
        XCTAssertEqual(try rig.exif(result).exposureBias, 2)
    }

    func testWhiteBalanceAndMeteringChangesAreInForceForTheNextPress() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(400))
        try rig.engine.setWhiteBalance(.daylight)
        let awb = try rig.capture()
        XCTAssertEqual(awb.selection, .controlsInForce)
        XCTAssertEqual(awb.frame.controls["AwbMode"], .int(WhiteBalanceMode.daylight.libcameraValue))
        try rig.engine.setMetering(.spot)
        let spot = try rig.capture()
        XCTAssertEqual(spot.selection, .controlsInForce)
        XCTAssertEqual(spot.frame.controls["AeMeteringMode"], .int(1))
    }

    func testAManualLensPositionIsReachedBeforeThePhoto() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(400))
        try rig.engine.focus.setLens(8)
        let result = try rig.capture()
        XCTAssertEqual(result.selection, .controlsInForce)
        XCTAssertEqual(try XCTUnwrap(result.lensPosition), 8, accuracy: 0.02)
    }

    func testTheSimulatedCameraAppliesExposureTwoFramesLate() throws {
        let loop = EventLoop.virtual()
        let provider = SimulatedCameraProvider(
            loop: loop, world: SimWorld(), specs: [CaptureTestRig.small(.back)])
        let camera = try provider.open(id: SimCameraSpec.back.id)
        var frames: [FrameMetadata] = []
        try camera.start { frame in
            frames.append(frame.metadata)
            frame.release()
        }
        loop.advance(by: .milliseconds(200))
        let started = frames.count + 1  // the frame exposing now has already started
        try camera.setControls([
            "AeEnable": .bool(false), "ExposureTime": .int(7000), "AnalogueGain": .double(3),
        ])
        loop.advance(by: .milliseconds(200))
        XCTAssertNotEqual(frames[started - 1].exposureTime, .microseconds(7000), "already exposing")
        XCTAssertNotEqual(frames[started].exposureTime, .microseconds(7000), "programmed before the request")
        XCTAssertEqual(frames[started + 1].exposureTime, .microseconds(7000))
        XCTAssertEqual(frames[started + 1].analogueGain, 3)
        XCTAssertEqual(frames[started + 1].controls["AeEnable"], .bool(false))
        camera.close()
    }

    func testDateTimeOriginalIsTheFramesOwnWallClockWhenTheCameraGivesOne() throws {
        let rig = try CaptureTestRig()
        let camera = try XCTUnwrap(rig.engine.current)
        let reported = WallTime(
            secondsSince1970: 1_800_000_000, nanoseconds: 250_000_000, utcOffsetSeconds: 0)
        var frame = FrameMetadata(
            sequence: 9, sensorTimestamp: rig.loop.now, exposureTime: .milliseconds(10), analogueGain: 1)
        XCTAssertEqual(
            rig.engine.photoMetadata(for: frame, camera: camera).captureTime,
            rig.loop.wallTime(at: rig.loop.now),
            "without FrameWallClock: the sensor timestamp on the wall clock")
        frame.wallClock = reported
        XCTAssertEqual(rig.engine.photoMetadata(for: frame, camera: camera).captureTime, reported)
    }
}
