// Library work runs off the event loop: a shutter press during a long export is saved, from
// the frame that was exposing at the press, while the export is still running.

import Dispatch
import PinholeAppliance
import PinholeCapture
import PinholeConsole
import PinholeCore
import XCTest

final class LongLibraryWorkTests: XCTestCase {
    func testAShutterPressDuringALongExportIsSavedFromTheFrameExposingAtThePress() throws {
        let exportMayFinish = DispatchSemaphore(value: 0)
        let exportStarted = DispatchSemaphore(value: 0)
        let harness = try ConsoleHarness(
            quietFocus: true,
            library: { words in
                guard words.first == "export" else { return "ok" }
                exportStarted.signal()
                // A long export: it ends when the test says so (or after 30 s, so that an export
                // run on the loop makes this test fail instead of hang).
                _ = exportMayFinish.wait(timeout: .now() + 30)
                return "ok exported 500 photos to /media/stick"
            })
        var saved: [CaptureResult] = []
        harness.appliance.observe { event in
            if case .saved(let capture) = event { saved.append(capture) }
        }
        harness.commands.receive(line: "library export /media/stick")
        XCTAssertEqual(exportStarted.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(harness.loop.longWorkInFlight, 1)

        // Time goes on while the export runs: the shutter is pressed and the photo saved.
        harness.loop.advance(by: .milliseconds(500))
        let line = try XCTUnwrap(harness.appliance.board.buttons[.shutter]?.line)
        let pressedAt = harness.loop.now
        harness.gpio.press(line, hold: .milliseconds(80), bounce: 2)
        harness.loop.advance(by: .seconds(2))
        XCTAssertEqual(saved.count, 1, "saved while the export is still running")
        XCTAssertEqual(harness.loop.longWorkInFlight, 1)
        XCTAssertFalse(harness.lines.items.contains { $0.contains("exported") })
        let capture = try XCTUnwrap(saved.first)
        XCTAssertEqual(capture.selection, .exposingAtPress)
        XCTAssertEqual(capture.pressedAt, pressedAt)
        XCTAssertTrue(
            capture.frame.sensorTimestamp <= pressedAt
                && pressedAt < capture.frame.sensorTimestamp + capture.frame.exposureTime,
            "the frame exposing at the press: \(capture.frame.sensorTimestamp) + \(capture.frame.exposureTime)"
        )

        // The export ends; its answer comes in turn, then the press's photo, held meanwhile.
        exportMayFinish.signal()
        harness.loop.finishLongWork()
        XCTAssertEqual(
            harness.lines.take().suffix(2),
            [
                "ok exported 500 photos to /media/stick",
                "event saved \(capture.photo.id) \(capture.photo.file)",
            ])
    }
}
