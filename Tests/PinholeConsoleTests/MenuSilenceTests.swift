// The menu stays silent until started, so line mode on a terminal gets only its answers.

import PinholeAppliance
import PinholeConsole
import PinholeCore
import XCTest

final class MenuSilenceTests: XCTestCase {
    func testAMenuThatWasNeverStartedWritesNothing() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let written = Sink<UInt8>()
        let idle = InteractiveConsole(appliance: harness.appliance, commands: harness.commands, colour: false)
        {
            written.items += $0
        }
        idle.colour = true
        harness.commands.receive(line: "capture")
        harness.loop.advance(by: .seconds(2))
        harness.commands.receive(line: "torch on")
        harness.loop.advance(by: .milliseconds(100))
        XCTAssertEqual(harness.lines.take().filter { $0.hasPrefix("ok") }.count, 2)
        XCTAssertTrue(written.items.isEmpty, String(decoding: written.items, as: UTF8.self))
    }
}
