// Line mode's two promises to scripts: one answer for every line, and no event dropped.

import PinholeAppliance
import PinholeConsole
import PinholeCore
import PinholeField
import XCTest

final class LineModeAnswersTests: XCTestCase {
    /// The harness's console read through the real line reader, as from a pipe (`serial`: as
    /// from a serial line, through the enabled noise gate).
    private func reader(_ harness: ConsoleHarness, serial: Bool = false) -> LineModeReader {
        let gate = ConsoleInputGate(loop: harness.loop)
        gate.enabled = serial
        let lines = harness.lines
        let reader = LineModeReader(gate: gate, console: harness.commands) { lines.items.append($0) }
        gate.deliver = { [unowned reader] in reader.pass($0) }
        gate.onQuiet = { [unowned reader] in reader.quietBegan(reason: $0) }
        return reader
    }

    private func answers(_ lines: [String]) -> [String] { lines.filter { !$0.hasPrefix("event ") } }

    /// Issue 22's script: an unparseable streak on a pipe dropped the lines behind it (the
    /// `quit`), and the process ended at end of input without `ok bye`.
    func testTheFiveLineScriptEndsWithOkBye() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        var quit = false
        harness.commands.onQuit = { quit = true }
        let input = reader(harness)
        let script =
            "library edit rotate 1e308\ncamera switch x\ncamera switch \" y\nmetering "
            + String(repeating: "a", count: 5000) + "\nquit\n"
        input.receive(Array(script.utf8))
        harness.loop.advance(by: .milliseconds(100))
        let out = answers(harness.lines.take())
        XCTAssertEqual(out.count, 5, "\(out)")
        XCTAssertEqual(out.last, "ok bye")
        XCTAssertTrue(quit)
    }

    func testInvalidUTF8BlankAndOverlongLinesAreEachAnswered() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let input = reader(harness)
        var bytes: [UInt8] = [0xFF, 0xFE, 0x0A]  // not text at all
        bytes += Array("status".utf8) + [0xC3, 0x0D, 0x0A]  // text with a broken character: refused whole
        bytes += [0x0D]  // blank
        bytes += Array(String(repeating: "x", count: 5000).utf8) + [0x0A]
        bytes += [0x1B, 0x5B, 0x0A]  // a broken escape sequence, then the end of the line
        bytes += Array("status".utf8)  // no line ending: input ends
        input.receive(bytes)
        input.finish()
        harness.loop.advance(by: .milliseconds(100))
        let out = answers(harness.lines.take())
        XCTAssertEqual(out.count, 6, "\(out)")
        XCTAssertEqual(
            out.first,
            "error 64: the line held 2 bytes that are not text (invalid UTF-8 or NUL): it was ignored")
        XCTAssertTrue(out[1].hasPrefix("error 64: the line held 1 bytes"), out[1])
        XCTAssertEqual(out[2], "ok")
        XCTAssertTrue(out[3].hasPrefix("error 64: line too long"), out[3])
        XCTAssertEqual(out[4], "ok")
        XCTAssertTrue(out[5].hasPrefix("ok camera"), out[5])
    }

    /// On a pipe the gate is off: unparseable lines in a row do not drop the lines behind them.
    func testUnparseableStreakOnAPipeDropsNothing() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let input = reader(harness)
        input.receive(Array("nonsense\nnonsense\nnonsense\nnonsense\nstatus\n".utf8))
        harness.loop.advance(by: .milliseconds(100))
        let out = answers(harness.lines.take())
        XCTAssertEqual(out.count, 5, "\(out)")
        XCTAssertTrue(out[4].hasPrefix("ok camera"), out[4])
    }

    /// On a serial line the streak starts a quiet wait: an `event noise` line says so, and the
    /// lines already taken behind the streak are each answered `not run`, in order.
    func testAQuietWaitAnswersTheLinesItTookAndSaysSo() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        let input = reader(harness, serial: true)
        harness.commands.receive(line: "capture --timer 1")  // busy: the next lines wait their turn
        input.receive(Array("nonsense\nnonsense\nnonsense\nstatus\ntorch on\n".utf8))
        harness.loop.advance(by: .seconds(2))
        input.receive(Array("status\n".utf8))  // held back by the quiet wait
        harness.loop.advance(by: .milliseconds(100))
        let lines = harness.lines.take()
        let out = answers(lines)
        XCTAssertEqual(out.count, 6, "\(lines)")
        XCTAssertEqual(
            out.filter { $0.hasPrefix("error 64: not run: line noise began") }.count, 2, "\(lines)")
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("event noise: input is ignored (3 unparseable lines") }.count, 1)
        XCTAssertFalse(harness.appliance.torchOn)
    }

    /// Issue 22: a timelapse's shots during `capture --timer 3` were collected and discarded.
    /// Now each is written as an `event saved` line right after the pending answer, and the
    /// capture's own photo only in its answer.
    func testEventsDuringAPendingCommandAreWrittenAfterItsAnswer() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.appliance.timelapse = TimelapseController(appliance: harness.appliance, stateFile: nil)
        harness.commands.receive(line: "timelapse start --every 1s --count 3")
        harness.commands.receive(line: "capture --timer 3")
        harness.loop.advance(by: .seconds(5))
        let lines = harness.lines.take()
        XCTAssertTrue(lines.first?.hasPrefix("ok timelapse every 1s") ?? false, "\(lines)")
        XCTAssertTrue(lines.count > 1 && lines[1].hasPrefix("ok saved "), "\(lines)")
        let own = lines[1].split(separator: " ")[2]
        let saved = lines.filter { $0.hasPrefix("event saved ") }
        XCTAssertEqual(saved.count, 3, "\(lines)")
        XCTAssertFalse(saved.contains { $0.contains(own) }, "the capture's own photo is in its answer only")
        XCTAssertEqual(Array(lines[2...].prefix(3)), saved, "written right after the answer, in order")
    }

    func testHeldEventsAreBoundedAndTheOverflowIsReported() throws {
        let harness = try ConsoleHarness(quietFocus: true)
        harness.commands.receive(line: "capture --timer 2")
        let extra = 44
        for index in 0..<(LineModeConsole.maximumHeldEvents + extra) {
            harness.appliance.problem("problem \(index)")
        }
        harness.loop.advance(by: .seconds(3))
        let lines = harness.lines.take()
        XCTAssertTrue(lines.first?.hasPrefix("ok saved ") ?? false, "\(lines.prefix(2))")
        let problems = lines.filter { $0.hasPrefix("event problem problem ") }
        XCTAssertEqual(problems.count, LineModeConsole.maximumHeldEvents)
        XCTAssertEqual(problems.first, "event problem problem 0")
        // The capture's own `saved` came when the buffer was full: counted too (its answer has it).
        let lost = harness.commands.eventsLost
        XCTAssertEqual(lost, extra + 1)
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("event overflow: \(lost) events during one command were not kept") }
                .count,
            1, "\(lines.suffix(2))")
    }
}
