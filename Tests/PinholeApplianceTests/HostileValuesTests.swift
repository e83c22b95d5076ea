// Values that once crashed the process, and their neighbours: huge, infinite, NaN, zero and negative.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

final class HostileValuesTests: XCTestCase {
    /// Issue 12: `sim scene lux 99999999999999999999`, `af trigger`, `exposure auto` trapped
    /// ("Double value cannot be converted to Int64 because it is either infinite or NaN").
    func testABlindingSceneThenAFocusScanThenAutoExposureDoesNotCrash() throws {
        let rig = try CaptureTestRig()
        rig.world.setLux(Double("99999999999999999999")!)  // as the console parses it
        XCTAssertEqual(rig.world.scene.lux, SimWorld.maximumLux, "clamped to the brightest modelled scene")
        _ = try rig.triggerFocus()
        try rig.engine.setExposure(.auto)
        rig.loop.advance(by: .seconds(1))
        let result = try rig.capture()
        XCTAssertGreaterThanOrEqual(result.exposureTime, .microseconds(100), "the sensor's shortest exposure")
        XCTAssertTrue(result.gain.isFinite)
    }

    func testInfiniteAndNaNScenesAreClampedAndFramesKeepComing() throws {
        let rig = try CaptureTestRig()
        for lux in [Double.infinity, -.infinity, .nan, -5, 0, .greatestFiniteMagnitude] {
            rig.world.setLux(lux)
            XCTAssertTrue((0...SimWorld.maximumLux).contains(rig.world.scene.lux), "\(lux)")
            try rig.engine.setExposure(.auto)
            let frames = rig.engine.framesReceived
            rig.loop.advance(by: .milliseconds(300))
            XCTAssertGreaterThan(rig.engine.framesReceived, frames, "frames flow after lux \(lux)")
            let exposure = try XCTUnwrap(rig.engine.lastFrame).exposureTime
            XCTAssertGreaterThan(exposure, .zero)
        }
    }

    func testNonFiniteAndOutOfRangeControlsAreRefusedAndChangeNothing() throws {
        let rig = try CaptureTestRig()
        let before = rig.engine.exposure
        for gain in [Double.nan, .infinity, -.infinity, -1, 0, 1e300] {
            XCTAssertThrowsError(
                try rig.engine.setExposure(.manual(time: .milliseconds(10), gain: gain)), "\(gain)")
        }
        for stops in [Double.nan, .infinity, -.infinity, 1e300] {
            XCTAssertThrowsError(try rig.engine.setEV(stops), "\(stops)")
        }
        for time in [Duration.zero, .microseconds(-5), .seconds(1_000_000)] {
            XCTAssertThrowsError(try rig.engine.setExposure(.manual(time: time, gain: 1)), "\(time)")
        }
        for lens in [Double.nan, .infinity, -1, 1e300] {
            XCTAssertThrowsError(try rig.engine.focus.setLens(lens), "\(lens)")
        }
        for (x, y) in [(Double.nan, 0.5), (0.5, .infinity), (-0.1, 0.5), (1e300, 1e300)] {
            XCTAssertThrowsError(try rig.engine.focus.setPoint(x: x, y: y), "\(x) \(y)")
        }
        XCTAssertEqual(rig.engine.exposure, before)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertNoThrow(try rig.capture())
    }

    /// vimc reports no exposure metadata: the frame's exposure time is zero.
    func testAFrameWithoutExposureMetadataMakesAPhotoWithoutTheTag() throws {
        let rig = try CaptureTestRig()
        let zero = FrameMetadata(
            sequence: 1, sensorTimestamp: rig.loop.now, exposureTime: .zero, analogueGain: 0, digitalGain: 0)
        let metadata = rig.engine.photoMetadata(for: zero, camera: try XCTUnwrap(rig.engine.current))
        XCTAssertNil(metadata.exposureTime)
        XCTAssertEqual(metadata.iso, nil, "no gain reported: no ISO")
        var policy = FlashPolicy()
        policy.mode = .auto
        XCTAssertFalse(policy.shouldFire(scene: zero, hasFlash: true), "no exposure figure: no guess")
    }

    func testHostileZoomAEPointAndSizesAreRefusedAndChangeNothing() throws {
        let rig = try CaptureTestRig()
        let saved = rig.engine.savedSettings
        let size = rig.engine.stillSize
        for value in [Double.nan, .infinity, -.infinity, -1, 0, 0.999, 1e300, .greatestFiniteMagnitude] {
            XCTAssertThrowsError(try rig.engine.setZoom(value), "zoom \(value)")
        }
        for value in [Double.nan, .infinity, -.infinity, -1, -0.001, 1.001, 1e300, .greatestFiniteMagnitude] {
            XCTAssertThrowsError(try rig.engine.setAEPoint(x: value, y: 0.5), "ae point \(value)")
            XCTAssertThrowsError(try rig.engine.setAEPoint(x: 0.5, y: value), "ae point y \(value)")
            XCTAssertThrowsError(try rig.engine.setAFPoint(x: 0.5, y: value), "af \(value)")
        }
        for (width, height) in [(0, 0), (-5, -5), (Int.max, 1), (99_999, 99_999), (641, 480)] {
            XCTAssertThrowsError(try rig.engine.setStillSize(PixelSize(width: width, height: height)))
        }
        XCTAssertEqual(rig.engine.savedSettings, saved)
        XCTAssertEqual(rig.engine.stillSize, size)
        XCTAssertEqual(rig.engine.zoom, 1)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertNoThrow(try rig.capture(), "still working")
    }
}

final class TorchTests: XCTestCase {
    func testTheTorchLightsWithoutACameraAndGoesOffWhenTheApplianceStops() throws {
        let rig = try CaptureTestRig(specs: [])
        XCTAssertNil(rig.engine.current, "no camera")
        try rig.appliance.setTorch(true)
        XCTAssertEqual(rig.gpio.outputValue(rig.torchLine), true)
        rig.appliance.shutdown()
        XCTAssertEqual(rig.gpio.outputValue(rig.torchLine), false)
        XCTAssertFalse(rig.appliance.torchOn)
    }

    func testTheTorchStillLightsAfterTheCameraDied() throws {
        let rig = try CaptureTestRig()
        rig.engine.stop()
        try rig.appliance.setTorch(true)
        XCTAssertEqual(rig.gpio.outputValue(rig.torchLine), true)
        try rig.appliance.setTorch(false)
        XCTAssertEqual(rig.gpio.outputValue(rig.torchLine), false)
    }
}
