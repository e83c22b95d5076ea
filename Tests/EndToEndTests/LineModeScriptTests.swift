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
}
