// `pinhole run` on a pipe: a script of hostile commands and bytes gets exactly one answer a line.

import Foundation
import PinholeCommandFuzz
import XCTest

final class LineModeScriptTests: XCTestCase {
    /// Issue 22: random scripts of 400 hostile commands got answers to only 62–104 lines (an
    /// unparseable streak dropped the lines behind it; blank and invalid-UTF-8 lines got none).
    func testFourHundredHostileLinesOnAPipeGetOneAnswerEach() throws {
        let directory = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for seed in [UInt64(3), 4] {
            var script = CommandScript(seed: seed)
            var bytes: [UInt8] = []
            var lines = 0
            while lines < 400 {
                let line = script.line()
                // Lines that end the run (or switch to the menu) would leave the rest unread.
                let verb = line.split(separator: " ").first.map(String.init) ?? ""
                if ["quit", "shutdown"].contains(verb) { continue }
                bytes += script.bytes(for: line)
                lines += 1
            }
            bytes += script.bytes(for: "") + script.bytes(for: "quit")  // a blank line, then quit
            let config = directory.appendingPathComponent("pinhole\(seed).toml")
            try Data().write(to: config)
            let result = try PinholeProcess.run(
                [
                    "run", "--board", "sim", "--clock", "virtual",
                    "--library", directory.appendingPathComponent("lib\(seed)").path,
                    "--config", config.path,
                ], bytes: bytes, directory: directory)
            let answers = result.lines.filter { !$0.hasPrefix("event ") }
            XCTAssertEqual(answers.count, 402, "seed \(seed): \(result.error.suffix(600))")
            XCTAssertEqual(answers.last, "ok bye", "seed \(seed)")
            XCTAssertEqual(result.status, 0, "seed \(seed)")
        }
    }

    /// Issue 22's five-line script ended without `ok bye` (the streak of errors dropped the
    /// `quit` waiting behind the library command), and `\xff\xfe` got no answer.
    func testTheFiveLineScriptAndAnInvalidLineAreAnswered() throws {
        let directory = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script =
            "library edit rotate 1e308\ncamera switch x\ncamera switch \" y\nmetering "
            + String(repeating: "a", count: 5000) + "\n"
        let result = try PinholeProcess.run(
            ["run", "--board", "sim", "--clock", "virtual", "--library", directory.path],
            bytes: Array(script.utf8) + [0xFF, 0xFE, 0x0A] + Array("quit\n".utf8))
        let answers = result.lines.filter { !$0.hasPrefix("event ") }
        XCTAssertEqual(answers.count, 6, result.output)
        XCTAssertTrue(
            answers[4].hasPrefix("error 64: the line held 2 bytes that are not text"), result.output)
        XCTAssertEqual(answers.last, "ok bye")
    }
}
