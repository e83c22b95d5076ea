// Line-mode camera commands on the simulated board: focus, exposure, metering, white balance, flash.

import PinholeAppliance
import PinholeConsole
import PinholeCore
import XCTest

final class CameraCommandsTests: XCTestCase {
    private func run(_ harness: ConsoleHarness, _ line: String, wait: Duration = .milliseconds(50)) -> String
    {
        harness.commands.receive(line: line)
        var waited = Duration.zero
        while harness.lines.items.isEmpty && waited < .seconds(10) {
            harness.wait(wait)
            waited += wait
        }
        return harness.lines.take().joined(separator: "\n")
    }

    func testAFTriggerAnswersWhenTheScanHasEndedWithItsState() throws {
        let harness = try ConsoleHarness()
        XCTAssertEqual(run(harness, "af mode auto"), "ok af mode auto")
        XCTAssertEqual(run(harness, "af point 0.8 0.72"), "ok af point 0.8 0.72")
        let answer = run(harness, "af trigger")
        XCTAssertTrue(answer.hasPrefix("ok af focused lens "), answer)
        let lens = try XCTUnwrap(Double(answer.split(separator: " ").last.map(String.init) ?? ""))
        XCTAssertEqual(lens, 2.5, accuracy: 0.2, "the chart at 0.4 m")
        let status = run(harness, "status --json")
        XCTAssertTrue(status.contains("\"afState\":\"focused\""), status)
        XCTAssertTrue(status.contains("\"afMode\":\"auto\""), status)
        XCTAssertTrue(status.contains("\"lensPosition\":2."), status)
        XCTAssertEqual(run(harness, "af continuous"), "ok af mode continuous", "short for af mode continuous")
    }

    func testExposureMeteringWhiteBalanceAndFlashAreSetAndReported() throws {
        let harness = try ConsoleHarness()
        XCTAssertEqual(run(harness, "exposure manual 4000 2"), "ok exposure manual 4000 us gain 2.0")
        XCTAssertEqual(run(harness, "metering spot"), "ok metering spot")
        XCTAssertEqual(run(harness, "awb daylight"), "ok awb daylight")
        XCTAssertEqual(run(harness, "ev -1"), "ok ev -1.0")
        XCTAssertEqual(run(harness, "flash auto"), "ok flash auto")
        let status = run(harness, "status --json")
        for field in [
            "\"exposure\":\"manual\"", "\"metering\":\"spot\"", "\"awb\":\"daylight\"", "\"flash\":\"auto\"",
        ] {
            XCTAssertTrue(status.contains(field), "\(field) in \(status)")
        }
        XCTAssertTrue(run(harness, "af mode sideways").hasPrefix("error 64:"))
        XCTAssertTrue(
            run(harness, "exposure manual 4000 99").hasPrefix("error 70: AnalogueGain 99.0 is outside"))
    }

    func testCameraListShowsHowFarEachCameraCanZoom() throws {
        let harness = try ConsoleHarness()
        let list = run(harness, "camera list")
        XCTAssertTrue(list.hasPrefix("ok "), list)
        let cameras = list.dropFirst(3).split(separator: ";")
        XCTAssertFalse(cameras.isEmpty)
        for camera in cameras {
            XCTAssertTrue(
                camera.hasSuffix(" zoom to 8.0x"), "the simulated cameras' ScalerCrop limit: \(camera)")
        }
        XCTAssertTrue(
            cameras.contains { $0.contains(" video 320x240,160x96 at 10,15,24,25,30 fps ") },
            "video sizes and rates: \(list)")
        let json = run(harness, "camera list --json")
        XCTAssertTrue(json.contains("\"zoomLimit\":8"), json)
        XCTAssertTrue(json.contains("\"videoFrameRates\":[10,15,24,25,30]"), json)
        XCTAssertEqual(run(harness, "zoom 8"), "ok zoom 8.0", "the limit listed is one zoom accepts")
        XCTAssertTrue(run(harness, "zoom 8.5").hasPrefix("error "), "and nothing above it")
    }

    func testAFixedFocusCameraWithoutATorchRefusesFocusAndFlash() throws {
        let harness = try ConsoleHarness()
        XCTAssertTrue(run(harness, "camera switch").hasPrefix("ok camera "))
        XCTAssertTrue(run(harness, "lens 2").contains("does not support focus control"))
        XCTAssertTrue(run(harness, "af trigger").contains("does not support focus control"))
        XCTAssertTrue(run(harness, "flash on").contains("has no flash"))
        XCTAssertTrue(run(harness, "status --json").contains("\"afMode\":\"fixed\""))
    }
}
