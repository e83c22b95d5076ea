// The renderer: a full screen never scrolls the terminal, and unchanged frames send nothing.

import PinholeConsole
import XCTest

final class VT100RendererTests: XCTestCase {
    func testAFullScreenNeverScrollsAndAnUnchangedFrameSendsNothing() {
        var screen = ScreenBuffer()
        for row in 0..<24 { screen.put(String(repeating: "x", count: 80), row: row, column: 0) }
        var renderer = VT100Renderer()
        let terminal = TerminalEmulator()
        terminal.feed(renderer.render(screen))
        XCTAssertEqual(terminal.scrolled, 0)
        XCTAssertEqual(terminal.line(0), String(repeating: "x", count: 80))
        XCTAssertEqual(
            terminal.line(23), String(repeating: "x", count: 79), "the bottom-right cell is never written")
        XCTAssertEqual(renderer.render(screen), [], "nothing changed, nothing sent")
        screen.put("y", row: 10, column: 40)
        let update = String(decoding: renderer.render(screen), as: UTF8.self)
        XCTAssertTrue(update.contains("\u{1B}[11;41Hy"), update.debugDescription)
        XCTAssertFalse(update.contains("\u{1B}[2J"))
    }

    func testControlCharactersInTextCannotReachTheTerminal() {
        var screen = ScreenBuffer()
        // C0, DEL and C1 (CSI 0x9B, which some terminals take as ESC [) are written as line
        // mode writes them, \xHH.
        screen.put("bad\u{1B}[2Jname\u{07}\u{9B}2J\u{7F}", row: 0, column: 0)
        XCTAssertEqual(screen.line(0), "bad\\x1B[2Jname\\x07\\x9B2J\\x7F")
        var renderer = VT100Renderer()
        let terminal = TerminalEmulator()
        terminal.feed(renderer.render(screen))
        XCTAssertEqual(terminal.unknown, [])
        XCTAssertEqual(terminal.bells, 0)
    }
}
