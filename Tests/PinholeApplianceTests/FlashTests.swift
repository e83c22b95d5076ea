// Flash on the simulated board: the torch LED fires in the dark, not in daylight, and covers the frame.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

final class FlashTests: XCTestCase {
    func testAutoFlashFiresInTheDarkAndCoversTheCapturedFrame() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setFlashMode(.auto)
        rig.world.setLux(5)
        rig.loop.advance(by: .milliseconds(500))
        let result = try rig.capture()
        XCTAssertEqual(result.flashFired, true)
        XCTAssertEqual(result.selection, .flashLit)
        XCTAssertEqual(
            try XCTUnwrap(result.frame.lux), 5 + rig.world.torchLux, "the frame saw the torch light")
        let torch = rig.gpio.history.filter { $0.line == rig.torchLine }
        XCTAssertEqual(torch.map(\.value), [true, false], "one flash")
        XCTAssertLessThanOrEqual(torch[0].time, result.frame.sensorTimestamp, "lit before the exposure began")
        XCTAssertGreaterThanOrEqual(
            torch[1].time, result.frame.sensorTimestamp + result.frame.exposureTime,
            "dark only after the exposure ended")
        let exif = try rig.exif(result)
        XCTAssertEqual(exif.flashFired, true)
        XCTAssertEqual(exif.flashMode, .auto)
        XCTAssertFalse(rig.appliance.torchOn, "the torch setting is unchanged")
    }

    func testAutoFlashDoesNotFireInDaylight() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setFlashMode(.auto)
        rig.world.setLux(20_000)
        rig.loop.advance(by: .milliseconds(500))
        let result = try rig.capture()
        XCTAssertEqual(result.flashFired, false)
        XCTAssertEqual(result.selection, .exposingAtPress)
        XCTAssertTrue(rig.gpio.history.filter { $0.line == rig.torchLine }.isEmpty)
        XCTAssertEqual(try rig.exif(result).flashFired, false)
    }

    func testFlashOnFiresEvenInDaylightAndTheTorchReturnsToItsSetting() throws {
        let rig = try CaptureTestRig()
        try rig.appliance.setTorch(true)
        try rig.engine.setFlashMode(.on)
        rig.loop.advance(by: .milliseconds(300))
        let result = try rig.capture()
        XCTAssertEqual(result.flashFired, true)
        XCTAssertEqual(rig.gpio.outputValue(rig.torchLine), true, "the torch stays on after the flash")
    }

    func testFlashOnACameraWithoutATorchIsRefused() throws {
        let rig = try CaptureTestRig()
        try rig.appliance.switchCamera()
        XCTAssertThrowsError(try rig.engine.setFlashMode(.on)) { error in
            XCTAssertTrue("\(error)".contains("has no flash"), "\(error)")
        }
        rig.loop.advance(by: .milliseconds(200))
        let result = try rig.capture()
        XCTAssertNil(result.flashFired, "no flash on this camera")
        XCTAssertNil(try rig.exif(result).flashFired)
    }

    func testAPerShotFlashModeOverridesThePolicyForThatShotOnly() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(300))
        var outcome: Result<CaptureResult, Error>?
        rig.engine.capture(CaptureOptions(flash: .on)) { outcome = $0 }
        rig.loop.advance(by: .seconds(1))
        XCTAssertEqual(try XCTUnwrap(outcome).get().selection, .flashLit)
        XCTAssertEqual(rig.engine.flash.mode, .off, "the policy is unchanged")
        XCTAssertEqual(try rig.capture().flashFired, false)
    }

    /// Issue 22: `sim scene lux 2`, 200 ms, `flash auto`, `capture` gave 1/33 s at ISO 1600
    /// without the flash: the decision used an older frame's metering, not the picture's own.
    func testAutoFlashFiresForADarkPictureRightAfterTheLightDropped() throws {
        let rig = try CaptureTestRig()
        rig.world.setLux(2)
        rig.loop.advance(by: .milliseconds(200))
        try rig.engine.setFlashMode(.auto)
        let result = try rig.capture()
        XCTAssertEqual(
            result.flashFired, true, "exposure \(result.frame.exposureTime) gain \(result.frame.totalGain)")
        XCTAssertEqual(result.selection, .flashLit)
    }

    /// Issue 22: straight after the light came up, a capture fired the flash into daylight
    /// (1/4375 s): the frames before the press were dark, the picture taken was not.
    func testAutoFlashStaysOffForADaylightPictureRightAfterTheLightCameUp() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setFlashMode(.auto)
        rig.world.setLux(2)
        rig.loop.advance(by: .milliseconds(500))
        rig.world.setLux(20_000)
        let result = try rig.capture()
        XCTAssertEqual(result.flashFired, false)
        XCTAssertEqual(result.frame.lux, 20_000, "the picture is of the daylight scene")
        XCTAssertTrue(rig.gpio.history.filter { $0.line == rig.torchLine }.isEmpty, "the torch never lit")
        XCTAssertLessThan(result.frame.exposureTime, .milliseconds(2), "exposed for daylight")
    }

    /// In steady daylight flash auto keeps zero shutter lag: the frame exposing at the press.
    func testAutoFlashInSteadyLightKeepsTheFrameExposingAtThePress() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setFlashMode(.auto)
        rig.world.setLux(400)
        rig.loop.advance(by: .milliseconds(500))
        let result = try rig.capture()
        XCTAssertEqual(result.flashFired, false)
        XCTAssertEqual(result.selection, .exposingAtPress)
    }
}
