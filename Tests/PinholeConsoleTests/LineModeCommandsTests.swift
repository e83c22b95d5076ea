// The console commands added with the menu: help, bursts, the LED test, shutdown, menu.

import PinholeConsole
import PinholeCore
import XCTest

final class LineModeCommandsTests: XCTestCase {
    private func ask(_ harness: ConsoleHarness, _ line: String, wait: Duration = .seconds(2)) -> String {
        harness.ask(line, wait: wait)
    }

    func testHelpListsEveryCommandAsTextAndJSON() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let help = ask(harness, "help")
        for command in [
            "capture --burst N", "unlock PIN", "lock", "settings [--json]", "set KEY VALUE",
            "pin set NEW_PIN",
            "led test NAME", "shutdown [--poweroff]", "menu", "status [--json]", "library …",
        ] {
            XCTAssertTrue(help.contains(command), "help lacks \(command): \(help)")
        }
        XCTAssertTrue(ask(harness, "help --json").hasPrefix(#"[{"command":"capture [--json]""#))
    }

    func testBurstSelfTimerErrorsLEDTestAndShutdown() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        var powerOff: [Bool] = []
        harness.commands.onShutdown = { powerOff.append($0) }
        let burst = ask(harness, "capture --burst 3", wait: .seconds(3))
        XCTAssertTrue(burst.hasPrefix("ok saved 3 photos: photo1 photo2 photo3"), burst)
        XCTAssertEqual(ask(harness, "capture --burst 50"), "error 64: --burst takes 2 to 20 photos")
        XCTAssertEqual(ask(harness, "flash on"), "ok flash on")
        let flashBurst = ask(harness, "capture --burst 2", wait: .seconds(3))
        XCTAssertTrue(flashBurst.hasPrefix("ok saved 2 photos: photo4 photo5"), flashBurst)
        XCTAssertTrue(flashBurst.hasSuffix("; take single shots for flash photos"), flashBurst)
        let json = ask(harness, "capture --burst 2 --json", wait: .seconds(3))
        XCTAssertTrue(json.contains(#""pending":[]"#), json)
        XCTAssertTrue(json.contains(#""flashNote":"the flash did not fire: "#), json)
        XCTAssertEqual(ask(harness, "flash off"), "ok flash off")
        XCTAssertEqual(
            ask(harness, "capture --timer 5 --burst 2"),
            "error 64: use one of --timer and --burst: usage: capture [--json] | capture --live | capture --timer SECONDS [--live] | capture --burst N"
        )
        XCTAssertEqual(ask(harness, "led test status"), "ok blinked status 3 times")
        XCTAssertTrue(ask(harness, "led test beacon").hasPrefix("error 64: no output 'beacon'"))
        XCTAssertEqual(ask(harness, "menu"), "error 69: the menu needs a terminal: this console is a pipe")
        XCTAssertEqual(ask(harness, "shutdown --poweroff"), "ok shutting down and powering off")
        XCTAssertEqual(ask(harness, "shutdown"), "ok shutting down")
        XCTAssertEqual(powerOff, [true, false])
    }
}
