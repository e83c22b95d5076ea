// Line-mode timelapse commands: start, status (text and JSON), stop, and usage errors that change nothing.

import PinholeAppliance
import PinholeCore
import PinholeField
import XCTest

final class TimelapseCommandsTests: XCTestCase {
    private func ask(_ harness: ConsoleHarness, _ line: String, wait: Duration = .milliseconds(100)) -> String
    {
        harness.ask(line, wait: wait)
    }

    func testStartStatusAndStop() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.appliance.timelapse = TimelapseController(appliance: harness.appliance, stateFile: nil)
        XCTAssertEqual(ask(harness, "timelapse status"), "ok timelapse off, taken 0, missed 0")
        let started = ask(harness, "timelapse start --every 10s --count 5 --album Garden --lock")
        XCTAssertTrue(
            started.hasPrefix(
                #"ok timelapse every 10s, count 5, album "Garden", locked, taken 0, missed 0, next "#),
            started)
        _ = ask(harness, "sim wait 25000", wait: .seconds(26))
        let json = ask(harness, "timelapse status --json")
        XCTAssertTrue(json.contains(#""running":true"#), json)
        XCTAssertTrue(json.contains(#""taken":2"#), json)
        XCTAssertTrue(ask(harness, "status").contains("timelapse 2 taken 0 missed"))
        XCTAssertTrue(ask(harness, "help").contains("timelapse start --every DURATION"))
        XCTAssertEqual(ask(harness, "timelapse stop"), "ok timelapse off, taken 2, missed 0")
        XCTAssertTrue(ask(harness, "timelapse stop").hasPrefix("error "))
    }

    func testBadTimelapseCommandsAreUsageErrorsAndStartNothing() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let timelapse = TimelapseController(appliance: harness.appliance, stateFile: nil)
        harness.appliance.timelapse = timelapse
        for line in [
            "timelapse", "timelapse start", "timelapse start --every", "timelapse start --every 0.5s",
            "timelapse start --every 10x", "timelapse start --every 10 --count 0",
            "timelapse start --every 10 --from 07:00",
            "timelapse start --every 10 --from 25:00 --to 07:00", "timelapse start --every 10 extra",
            "timelapse stop now", "timelapse start --every 10 --count -3",
        ] {
            let answer = ask(harness, line)
            XCTAssertTrue(answer.hasPrefix("error 64"), "\(line): \(answer)")
        }
        XCTAssertNil(timelapse.state)
    }
}
