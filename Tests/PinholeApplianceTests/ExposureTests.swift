// Exposure on the simulated cameras: manual exposure into EXIF, EV/metering/AWB, locks, 0.3 and 0.5 controls.

import PinholeAppliance
import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

final class ExposureTests: XCTestCase {
    func testManualExposureIsHonouredAndWrittenToExif() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setExposure(.manual(time: .microseconds(4000), gain: 2.5))
        rig.loop.advance(by: .milliseconds(200))
        let result = try rig.capture()
        XCTAssertEqual(result.exposureTime, .microseconds(4000))
        XCTAssertEqual(result.gain, 2.5)
        let exif = try rig.exif(result)
        XCTAssertEqual(try XCTUnwrap(exif.exposureTime), 0.004, accuracy: 1e-6)
        XCTAssertEqual(exif.iso, 250, "ISO is 100 × total gain")
        XCTAssertEqual(exif.manualExposure, true)
    }

    func testAutoSettingsAreWrittenToExif() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setEV(1)
        try rig.engine.setMetering(.spot)
        try rig.engine.setWhiteBalance(.daylight)
        rig.loop.advance(by: .milliseconds(300))
        let exif = try rig.exif(try rig.capture())
        XCTAssertEqual(exif.exposureBias, 1)
        XCTAssertEqual(exif.metering, "spot")
        XCTAssertEqual(exif.manualWhiteBalance, true)
        XCTAssertEqual(exif.manualExposure, false)
    }

    func testEVCompensationBrightensTheExposure() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(500))
        let before = try XCTUnwrap(rig.engine.lastFrame)
        try rig.engine.setEV(1)
        rig.loop.advance(by: .milliseconds(500))
        let after = try XCTUnwrap(rig.engine.lastFrame)
        let ratio =
            (after.exposureTime.seconds * after.totalGain) / (before.exposureTime.seconds * before.totalGain)
        XCTAssertEqual(ratio, 2, accuracy: 0.1)
    }

    func testLibcamera05ExposureModeControlsAreUsedWhenThatIsWhatTheCameraReports() throws {
        let rig = try CaptureTestRig(specs: [CaptureTestRig.small(.backWithAutofocus)])
        XCTAssertNil(rig.engine.current?.controls["AeEnable"])
        try rig.engine.setExposure(.manual(time: .microseconds(8000), gain: 3))
        rig.loop.advance(by: .milliseconds(200))
        XCTAssertEqual(rig.engine.lastFrame?.exposureTime, .microseconds(8000))
        XCTAssertEqual(rig.engine.lastFrame?.analogueGain, 3)
        try rig.engine.setExposure(.auto)
        rig.loop.advance(by: .milliseconds(500))
        XCTAssertNotEqual(rig.engine.lastFrame?.exposureTime, .microseconds(8000))
    }

    func testHalfPressHoldsExposureUntilReleased() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(500))
        rig.engine.beginHalfPress()
        XCTAssertTrue(rig.engine.exposureLocked)
        rig.loop.advance(by: .milliseconds(100))
        let held = try XCTUnwrap(rig.engine.lastFrame)
        rig.world.setLux(50)
        rig.loop.advance(by: .milliseconds(500))
        XCTAssertEqual(rig.engine.lastFrame?.exposureTime, held.exposureTime)
        XCTAssertEqual(rig.engine.lastFrame?.analogueGain, held.analogueGain)
        rig.engine.endHalfPress()
        rig.loop.advance(by: .milliseconds(500))
        let free = try XCTUnwrap(rig.engine.lastFrame)
        XCTAssertGreaterThan(
            free.exposureTime.seconds * free.totalGain, 4 * held.exposureTime.seconds * held.totalGain)
    }

    func testUnsupportedAndOutOfRangeRequestsAreClearErrors() throws {
        let rig = try CaptureTestRig()
        XCTAssertThrowsError(try rig.engine.setControls(["AfTrigger": .int(0)])) { error in
            XCTAssertEqual(error as? CameraError, .unsupportedControl("AfTrigger", camera: "imx477"))
        }
        XCTAssertThrowsError(try rig.engine.setExposure(.manual(time: .microseconds(4000), gain: 64))) {
            error in
            XCTAssertTrue("\(error)".contains("AnalogueGain 64.0 is outside"), "\(error)")
        }
        XCTAssertFalse(rig.engine.exposure.isManual, "a refused request changes nothing")
    }
}
