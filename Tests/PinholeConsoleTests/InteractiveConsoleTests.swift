// The interactive console end to end in process: bytes in, VT100 out, read back by an
// emulator, on the simulated appliance with a virtual clock.

import PinholeConsole
import PinholeCore
import XCTest

final class InteractiveConsoleTests: XCTestCase {
    func testFirstScreenShowsTheStatusLineAndMenuWithoutScrollingOrUnknownSequences() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let lines = harness.terminal.text.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        XCTAssertTrue(lines[0].hasPrefix(" Pinhole  Main menu"), lines[0])
        XCTAssertTrue(lines[1].contains("torch off"), lines[1])
        XCTAssertTrue(lines[1].contains("0 photos"), lines[1])
        XCTAssertTrue(lines[1].contains("5.0G free"), lines[1])
        XCTAssertLessThanOrEqual(lines[1].count, 80)
        XCTAssertTrue(lines[3].hasPrefix(" 1  Capture"), lines[3])
        XCTAssertEqual(harness.terminal.scrolled, 0)
        XCTAssertEqual(harness.terminal.unknown, [])
    }

    func testArrowKeysInEveryFormAndEnterOpenTheChosenPage() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.type("\u{1B}[B\u{1B}OB\u{1B}[A\u{1B}OB\r")  // down, down, up, down: the third item
        XCTAssertTrue(harness.terminal.line(0).contains("Main menu > Viewfinder"), harness.terminal.line(0))
        harness.type("\u{1B}")  // a lone Escape resolves after the timeout: back
        XCTAssertTrue(harness.terminal.line(0).hasPrefix(" Pinhole  Main menu "), harness.terminal.line(0))
    }

    func testShutterTakesAPhotoAndTheStatusLineCountsIt() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.type("1")
        harness.type("1", settle: .seconds(1))
        XCTAssertTrue(harness.terminal.line(22).hasPrefix("ok saved photo1 "), harness.terminal.line(22))
        XCTAssertTrue(harness.terminal.line(1).contains("|1 ph|"), harness.terminal.line(1))
        XCTAssertTrue(
            harness.terminal.line(1).hasSuffix("|last photo1"), "every item, compacted to 80 columns")
        XCTAssertTrue(harness.terminal.text.contains("Last photo"), "the Capture page shows the last photo")
    }

    func testSelfTimerWaitsOnTheLoopClock() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.type("1")
        harness.type("2")
        XCTAssertTrue(
            harness.terminal.line(23).hasPrefix("Self-timer seconds (1-60): 10"), harness.terminal.line(23))
        harness.type("\u{7F}\u{7F}3\r", settle: .milliseconds(2900))
        XCTAssertTrue(
            harness.terminal.line(22).hasPrefix("… Self-timer seconds (1-60)"), harness.terminal.line(22))
        XCTAssertEqual(harness.appliance.status().photos, 0)
        harness.wait(.milliseconds(1000))
        XCTAssertTrue(harness.terminal.line(22).hasPrefix("ok saved photo1"), harness.terminal.line(22))
    }

    func testTheCameraPageZoomsSetsTheSizeAndTheAEPoint() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.type("2")  // Camera
        let page = harness.terminal.text
        for item in ["AE point", "Zoom", "Still size"] { XCTAssertTrue(page.contains(item), page) }
        let down = String(repeating: "\u{1B}[B", count: 11)  // the twelfth item: Zoom
        harness.type(down + "\r")
        XCTAssertTrue(harness.terminal.line(23).contains("Zoom: 1 (none)"), harness.terminal.line(23))
        harness.type("\u{15}2\r", settle: .seconds(1))  // Ctrl-U clears the initial answer
        XCTAssertEqual(harness.appliance.engine.zoom, 2)
        harness.type("\u{1B}[B\r")  // Still size
        XCTAssertTrue(harness.terminal.line(23).contains("320x240, 160x120"), harness.terminal.line(23))
        harness.type("160x120\r", settle: .seconds(1))
        XCTAssertEqual(harness.appliance.engine.stillSize, PixelSize(width: 160, height: 120))
        harness.type(String(repeating: "\u{1B}[A", count: 2) + "\r")  // AE point
        harness.type("\u{15}0.25 0.5\r", settle: .seconds(1))
        XCTAssertEqual(harness.appliance.engine.aePicturePoint?.x, 0.25)
    }

    func testPromptHistoryRecallsTheLastAnswer() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.type("2")
        harness.type("5")  // Lens position
        harness.type("1.5\r", settle: .seconds(1))
        harness.type("5")
        XCTAssertTrue(harness.terminal.line(23).hasSuffix("(0 = infinity):"), harness.terminal.line(23))
        harness.type("\u{1B}[A")
        XCTAssertTrue(harness.terminal.line(23).hasSuffix("(0 = infinity): 1.5"), harness.terminal.line(23))
    }

    func testOnlyChangesAreSentAndCtrlLRedrawsEverything() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let full = harness.output(for: "\u{0C}")
        XCTAssertTrue(String(decoding: full, as: UTF8.self).contains("\u{1B}[2J"))
        let move = harness.output(for: "\u{1B}[B")
        XCTAssertFalse(String(decoding: move, as: UTF8.self).contains("\u{1B}[2J"))
        let text = String(decoding: move, as: UTF8.self)
        let rows = Set(
            text.split(separator: "\u{1B}").compactMap { piece -> Int? in
                guard piece.hasPrefix("["), let h = piece.firstIndex(of: "H") else { return nil }
                return Int(piece[piece.index(after: piece.startIndex)..<h].split(separator: ";").first ?? "")
            })
        XCTAssertEqual(
            rows, [4, 5, 24],
            "moving the selection rewrites two rows and parks the cursor: \(text.debugDescription)")
        XCTAssertTrue(harness.terminal.reverse[4][1], "the second item is selected now")
        XCTAssertFalse(harness.terminal.reverse[3][1])
    }

    func testColourOnlyWhenEnabled() throws {
        let plain = try ConsoleHarness(quietFocus: true, colour: false)
        let plainBytes = plain.output(for: "\u{0C}")
        XCTAssertFalse(String(decoding: plainBytes, as: UTF8.self).contains("6m"), "no colour codes")
        let colour = try ConsoleHarness(quietFocus: true, colour: true)
        let colourBytes = String(decoding: colour.output(for: "\u{0C}"), as: UTF8.self)
        XCTAssertTrue(colourBytes.contains(";36m"), "the status line is cyan with colour on")
    }

    func testRandomBytesAndFloodsNeverBreakTheScreenOrTheMenu() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let bytes = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            harness.console.receive(bytes)
            harness.loop.advance(by: .milliseconds(100))
            harness.drain()
        }
        harness.console.receive(Array(repeating: UInt8(ascii: "x"), count: 100_000))
        harness.type("\u{1B}[1;" + String(repeating: "9", count: 500))  // an unterminated escape sequence
        harness.wait(.seconds(30))  // let any self-timer or burst the noise started finish
        harness.type("\u{03}\u{03}\u{1B}\u{1B}", settle: .seconds(1))
        harness.type("\u{0C}")
        XCTAssertEqual(harness.terminal.scrolled, 0)
        XCTAssertEqual(harness.terminal.unknown, [])
        XCTAssertTrue(harness.terminal.line(0).hasPrefix(" Pinhole  Main menu"), harness.terminal.text)
        XCTAssertTrue(harness.terminal.line(3).hasPrefix(" 1  Capture"), harness.terminal.text)
    }
}

extension ConsoleHarness {
    /// The bytes written in answer to `text`.
    func output(for text: String) -> [UInt8] {
        drain()
        console.receive(Array(text.utf8))
        loop.advance(by: .milliseconds(100))
        return drain()
    }
}
