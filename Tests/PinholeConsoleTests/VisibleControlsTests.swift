// Line mode writes control characters from input, metadata or paths as \xHH, never raw.

import PinholeConsole
import XCTest

final class VisibleControlsTests: XCTestCase {
    /// An answer that repeats what came in (here an unknown camera's name) carries ESC, BEL
    /// and the C1 CSI as `\x1B`, `\x07` and `\x9B`; nothing raw reaches the terminal.
    func testControlCharactersInAnswersAreMadeVisible() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.commands.receive(line: "camera select \"\u{1B}]0;owned\u{07}\u{9B}2J\"")
        harness.loop.advance(by: .milliseconds(300))
        let answer = harness.lines.take().joined(separator: "\n")
        XCTAssertTrue(answer.hasPrefix("error"), answer)
        XCTAssertTrue(answer.contains("\\x1B]0;owned\\x07\\x9B2J"), answer)
        XCTAssertFalse(
            answer.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, answer)
    }
}
