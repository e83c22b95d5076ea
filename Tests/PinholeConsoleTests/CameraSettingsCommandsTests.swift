// `settings` shows the camera settings and `set camera.KEY VALUE` changes them like the direct commands.

import PinholeAppliance
import PinholeConsole
import PinholeCore
import XCTest

final class CameraSettingsCommandsTests: XCTestCase {
    private func ask(_ harness: ConsoleHarness, _ line: String) -> String {
        harness.commands.receive(line: line)
        harness.loop.advance(by: .milliseconds(300))
        return harness.lines.take().joined(separator: "\n")
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
}
