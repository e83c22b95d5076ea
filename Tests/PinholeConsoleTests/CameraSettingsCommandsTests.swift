// `settings` shows the camera settings and `set camera.KEY VALUE` changes them like the direct commands.

import Foundation
import PinholeAppliance
import PinholeCapture
import PinholeConsole
import PinholeCore
import XCTest
import SystemPackage

final class CameraSettingsCommandsTests: XCTestCase {
    private func ask(_ harness: ConsoleHarness, _ line: String) -> String {
        harness.ask(line, wait: .milliseconds(300))
    }

    func testSettingsListsTheCameraSettingsAndSetChangesThem() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let before = ask(harness, "settings")
        XCTAssertTrue(before.contains("camera.exposure=auto"), before)
        XCTAssertTrue(before.contains("camera.ev=0.0"), before)
        XCTAssertEqual(
            ask(harness, "set camera.ev 1.5"), "ok camera.ev 1.5 saved (restored at the next start)")
        XCTAssertEqual(harness.appliance.engine.exposure.ev, 1.5)
        XCTAssertEqual(
            ask(harness, "set camera.awb daylight"),
            "ok camera.awb daylight saved (restored at the next start)")
        XCTAssertEqual(harness.appliance.engine.exposure.whiteBalance, .daylight)
        XCTAssertTrue(ask(harness, "set camera.gain 4").hasPrefix("ok camera.gain 4"))
        guard case .manual(_, let gain) = harness.appliance.engine.exposure.mode else {
            return XCTFail("manual exposure expected")
        }
        XCTAssertEqual(gain, 4)
        XCTAssertTrue(ask(harness, "settings").contains("camera.gain=4.0"))
        XCTAssertTrue(ask(harness, "settings --json").contains(#""camera.awb":"daylight""#))
    }

    /// A setting whose save fails is answered as an error naming the file, not "saved" (it
    /// still applies until the next start, and the failure is a problem in `status`).
    func testSetAnswersAnErrorWhenTheSaveFailed() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let directory = NSTemporaryDirectory() + "pinhole-settings-\(UUID().uuidString)"
        harness.appliance.settingsFile = SettingsFile(
            path: FilePath(directory + "/missing/camera-settings.toml"))
        let answer = ask(harness, "set camera.ev 1.5")
        XCTAssertTrue(
            answer.hasPrefix("error 70: camera.ev is 1.5 until the next start, but not saved:"), answer)
        XCTAssertTrue(answer.contains("missing/camera-settings.toml"), answer)
        XCTAssertEqual(harness.appliance.engine.exposure.ev, 1.5)
        XCTAssertTrue(harness.appliance.problems.contains { $0.hasPrefix("settings not saved") })
        try FileManager.default.createDirectory(
            atPath: directory + "/missing", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        XCTAssertEqual(
            ask(harness, "set camera.ev 1"), "ok camera.ev 1 saved (restored at the next start)")
    }

    func testBadCameraSettingsAreRefusedAndChangeNothing() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        XCTAssertTrue(ask(harness, "set camera.zoomies 2").hasPrefix("error 64: no setting 'camera.zoomies'"))
        for line in [
            "set camera.ev nan", "set camera.ev inf", "set camera.ev 1e308", "set camera.gain -1",
            "set camera.exposure manual", "set camera.awb purple", "set camera.exposure_time_us 0",
        ] {
            XCTAssertTrue(ask(harness, line).hasPrefix("error"), line)
        }
        XCTAssertEqual(harness.appliance.engine.exposure, ExposureSettings())
    }

    func testZoomSizeAndAEPointFromLineModeAndSettings() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let engine = harness.appliance.engine
        XCTAssertEqual(ask(harness, "zoom 2"), "ok zoom 2.0")
        XCTAssertEqual(ask(harness, "camera size 160x120"), "ok camera size 160x120")
        XCTAssertEqual(ask(harness, "ae point 0.25 0.5"), "ok ae point 0.25 0.5")
        let settings = ask(harness, "settings")
        for expected in ["camera.zoom=2.0", "camera.size=160x120", "camera.ae_point=0.25,0.5"] {
            XCTAssertTrue(settings.contains(expected), settings)
        }
        let status = ask(harness, "status")
        XCTAssertTrue(status.contains("160x120 zoom 2.0x"), status)
        XCTAssertTrue(ask(harness, "status --json").contains(#""zoom":2"#))
        XCTAssertTrue(ask(harness, "set camera.zoom 1.5").hasPrefix("ok camera.zoom 1.5"))
        XCTAssertEqual(engine.zoom, 1.5)
        XCTAssertTrue(ask(harness, "set camera.ae_point off").hasPrefix("ok camera.ae_point off"))
        XCTAssertNil(engine.exposure.point)
        XCTAssertTrue(ask(harness, "set camera.size 320x240").hasPrefix("ok camera.size 320x240"))
        XCTAssertEqual(engine.stillSize, PixelSize(width: 320, height: 240))
    }

    func testHostileZoomSizeAndAEPointValuesAreRefusedAndChangeNothing() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let engine = harness.appliance.engine
        let before = engine.savedSettings
        for line in [
            "zoom nan", "zoom inf", "zoom -inf", "zoom -1", "zoom 0", "zoom 0.5", "zoom 1e308",
            "zoom 99999999999999999999", "zoom", "zoom 2 3", "ae point nan 0.5", "ae point 0.5 inf",
            "ae point -1 0", "ae point 2 0.5", "ae point 1e308 1e308", "ae point", "ae point 0.5",
            "camera size 0x0", "camera size -5x-5", "camera size 99999x99999", "camera size 100x100",
            "camera size 18446744073709551616x1", "camera size", "camera size wide",
            "set camera.zoom nan", "set camera.size 1x1", "set camera.ae_point nan,nan",
            "set camera.ae_point 0.5",
        ] {
            let answer = ask(harness, line)
            XCTAssertTrue(answer.hasPrefix("error"), "\(line): \(answer)")
        }
        XCTAssertTrue(ask(harness, "zoom 9").contains("use 1.0 (none) to 8.0"))
        XCTAssertTrue(ask(harness, "camera size 100x100").contains("choose one of 320x240, 160x120"))
        XCTAssertEqual(engine.savedSettings, before)
        XCTAssertEqual(engine.zoom, 1)
        XCTAssertEqual(engine.stillSize, PixelSize(width: 320, height: 240))
        try engine.select(id: "ov5647")
        XCTAssertTrue(ask(harness, "ae point 0.5 0.5").contains("cannot meter at a point"))
        XCTAssertNil(engine.exposure.point)
    }
}
