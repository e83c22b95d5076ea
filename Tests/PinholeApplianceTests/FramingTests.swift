// Framing and metering on virtual time: zoom through ScalerCrop, the still size, and AE at a point.

import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest

@testable import PinholeAppliance
@testable import PinholeCapture
import SystemPackage

final class FramingTests: XCTestCase {
    func testZoomCropsThePhotoAndAPressWaitsForTheCrop() throws {
        let rig = try CaptureTestRig()
        rig.loop.advance(by: .milliseconds(300))
        try rig.engine.setZoom(2)
        let result = try rig.capture()
        XCTAssertEqual(result.selection, .controlsInForce, "an older uncropped ring frame is not used")
        XCTAssertEqual(
            result.frame.controls["ScalerCrop"],
            .rectangles([NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)]))
        XCTAssertEqual(result.metadata.digitalZoom, 2)
        XCTAssertEqual(try rig.exif(result).digitalZoom, 2, "EXIF DigitalZoomRatio")
        XCTAssertEqual(rig.engine.savedSettings.cameras[rig.engine.current!.id]?.zoom, 2)
        XCTAssertEqual(rig.appliance.status().zoom, 2)

        try rig.engine.setZoom(1)
        let unzoomed = try rig.capture()
        XCTAssertNil(try rig.exif(unzoomed).digitalZoom, "no zoom: no DigitalZoomRatio")
        XCTAssertNil(rig.engine.savedSettings.cameras[rig.engine.current!.id]?.zoom)
    }

    func testTheSimulatedCameraRendersTheCrop() {
        let scene = SimScene.standard
        let cropped = scene.cropped(to: CaptureEngine.crop(zoom: 2))
        let person = cropped.objects.first { $0.name == "person" }!
        // The person spans 0.42…0.58 of the sensor: 0.34…0.66 of a 2× crop.
        XCTAssertEqual(person.rect.x, 0.34, accuracy: 1e-9)
        XCTAssertEqual(person.rect.width, 0.32, accuracy: 1e-9)
        XCTAssertEqual(cropped.object(at: 0.35, 0.5).name, "person")
        XCTAssertEqual(scene.object(at: 0.35, 0.5).name, "background")
        // Rendered: the picture's left tenth shows the house only without zoom.
        let exposure = SimExposure(
            exposureTime: .milliseconds(10), gain: 1, lensPosition: 0.125, blurPerDioptre: 0, noiseSeed: 1)
        let wide = SimRenderer.render(scene, size: PixelSize(width: 64, height: 48), exposure: exposure)
        let zoomed = SimRenderer.render(cropped, size: PixelSize(width: 64, height: 48), exposure: exposure)
        XCTAssertNotEqual(wide.planes[0].bytes, zoomed.planes[0].bytes)
    }

    func testBadZoomFactorsAreRefusedAndChangeNothing() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setZoom(2)
        let saved = rig.engine.savedSettings
        for factor in [Double.nan, .infinity, -.infinity, -1, 0, 0.5, 8.5, 1e300] {
            XCTAssertThrowsError(try rig.engine.setZoom(factor), "\(factor)") { error in
                XCTAssertTrue("\(error)".contains("use 1.0 (none) to 8.0"), "\(error)")
            }
        }
        XCTAssertEqual(rig.engine.zoom, 2)
        XCTAssertEqual(rig.engine.savedSettings, saved)
    }

    func testAFPointFollowsTheCropAndStaysPutInThePictureWhenZooming() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setAFPoint(x: 0.25, y: 0.25)
        XCTAssertEqual(rig.engine.focus.point.x, 0.25, accuracy: 1e-9)
        try rig.engine.setZoom(2)
        // Same place in the picture, now a quarter of the way into the centred half of the sensor.
        XCTAssertEqual(rig.engine.focus.point.x, 0.375, accuracy: 1e-9)
        XCTAssertEqual(rig.engine.focus.point.y, 0.375, accuracy: 1e-9)
        XCTAssertEqual(rig.engine.afPicturePoint.x, 0.25, accuracy: 1e-9)
        try rig.engine.setAFPoint(x: 1, y: 0)
        XCTAssertEqual(rig.engine.focus.point.x, 0.75, accuracy: 1e-9)
        XCTAssertEqual(rig.engine.focus.point.y, 0.25, accuracy: 1e-9)
    }

    func testStillSizeIsOneTheCameraListsAndThePhotoHasIt() throws {
        let rig = try CaptureTestRig()
        let camera = try XCTUnwrap(rig.engine.current)
        let half = PixelSize(width: 320, height: 240)
        try rig.engine.setStillSize(half)
        XCTAssertEqual(rig.engine.stillSize, half)
        rig.loop.advance(by: .milliseconds(200))
        let result = try rig.capture()
        XCTAssertEqual(try rig.exif(result).pixelWidth, 320)
        XCTAssertEqual(rig.engine.savedSettings.cameras[camera.id]?.stillSize, half)
        XCTAssertEqual(rig.appliance.status().camera?.stillSize, "320x240")

        let saved = rig.engine.savedSettings
        XCTAssertThrowsError(try rig.engine.setStillSize(PixelSize(width: 100, height: 100))) { error in
            XCTAssertTrue("\(error)".contains("choose one of 640x480, 320x240"), "\(error)")
        }
        XCTAssertEqual(rig.engine.stillSize, half)
        XCTAssertEqual(rig.engine.savedSettings, saved)
    }

    func testZoomSizeAndAEPointSurviveARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = SettingsFile(path: FilePath(directory.appendingPathComponent("camera-settings.toml").path))
        do {
            let rig = try CaptureTestRig(settingsFile: file)
            try rig.engine.setZoom(3)
            try rig.engine.setStillSize(PixelSize(width: 320, height: 240))
            try rig.engine.setAEPoint(x: 0.8, y: 0.7)
            rig.appliance.shutdown()
        }
        let rig = try CaptureTestRig(settingsFile: file)
        XCTAssertEqual(rig.engine.zoom, 3)
        XCTAssertEqual(rig.engine.stillSize, PixelSize(width: 320, height: 240))
        XCTAssertEqual(rig.engine.exposure.point, PicturePoint(x: 0.8, y: 0.7))
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertEqual(rig.camera.aeWindow, rig.engine.aeWindow(x: 0.8, y: 0.7))
    }

    /// The chart (reflectance 0.5, lower right) is brighter than the background (0.25): AE
    /// metering on it gives about half the exposure of metering on the background.
    func testAEPointMetersThereOnTheSimulatedCamera() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setAEPoint(x: 0.2, y: 0.1)
        let background = try rig.capture()
        try rig.engine.setAEPoint(x: 0.8, y: 0.72)
        let chart = try rig.capture()
        XCTAssertEqual(chart.selection, .controlsInForce)
        let ratio =
            (chart.exposureTime.seconds * chart.gain) / (background.exposureTime.seconds * background.gain)
        XCTAssertEqual(ratio, 0.5, accuracy: 0.06)
        XCTAssertEqual(rig.appliance.status().aePoint, [0.8, 0.72])
        XCTAssertEqual(try rig.exif(chart).metering, "spot")
    }

    func testAEPointMapsThroughAnUpsideDownMountAndZoom() throws {
        let rig = try CaptureTestRig()
        try rig.engine.setZoom(2)
        let window = rig.engine.aeWindow(x: 0.1, y: 0.1)
        // Zoom 2: picture 0.05…0.15 is sensor 0.275…0.325 (no rotation on the simulated board).
        XCTAssertEqual(window.x, 0.275, accuracy: 1e-9)
        XCTAssertEqual(window.width, 0.05, accuracy: 1e-9)
        let turned = PictureFrame(rotation: 180, crop: CaptureEngine.crop(zoom: 2))
        let point = turned.sensorPoint(x: 0.1, y: 0.1)
        XCTAssertEqual(point.x, 0.7, accuracy: 1e-9)
        XCTAssertEqual(point.y, 0.7, accuracy: 1e-9)
    }

    func testACameraThatCannotMeterAtAPointSaysSoAndNothingChanges() throws {
        let rig = try CaptureTestRig()
        try rig.engine.select(id: "ov5647")
        let saved = rig.engine.savedSettings
        XCTAssertThrowsError(try rig.engine.setAEPoint(x: 0.5, y: 0.5)) { error in
            XCTAssertTrue("\(error)".contains("cannot meter at a point"), "\(error)")
        }
        for (x, y) in [(Double.nan, 0.5), (0.5, .infinity), (-1, 0.5), (0.5, 1.5)] {
            XCTAssertThrowsError(try rig.engine.setAEPoint(x: x, y: y))
        }
        XCTAssertNil(rig.engine.exposure.point)
        XCTAssertEqual(rig.engine.savedSettings, saved)
    }
}
