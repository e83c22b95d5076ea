// End to end: a PIN hashed with `pinhole console hash-pin` (crypt(3) yescrypt) protects
// the library in line mode; bad input never stops the console.

import Foundation
import XCTest

final class ConsoleAccessTests: XCTestCase {
    func testHashedPINFromTheConfigurationUnlocksTheLibrary() throws {
        let dir = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hashed = try PinholeProcess.run(["console", "hash-pin"], input: "2468\n")
        XCTAssertEqual(hashed.status, 0, hashed.error)
        let line = hashed.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(line.hasPrefix("pin_hash = \"$y$"), line)
        XCTAssertFalse(line.contains("2468"))
        let config = dir.appendingPathComponent("pinhole.toml")
        try "[console]\n\(line)\nmax_pin_failures = 3\n".write(to: config, atomically: true, encoding: .utf8)

        let run = try PinholeProcess.run(
            [
                "run", "--board", "sim", "--clock", "virtual", "--config", config.path,
                "--library", dir.appendingPathComponent("library").path,
            ],
            input:
                "library count\nunlock 1357\nstatus\nunlock 2468\nlibrary count\nlock\nlibrary count\nquit\n")
        XCTAssertEqual(run.status, 0, run.error)
        let lines = run.lines
        XCTAssertEqual(lines.count, 8, run.output)
        guard lines.count == 8 else { return }
        XCTAssertTrue(lines[2].hasPrefix("ok camera imx477 (back)"), lines[2])
        XCTAssertTrue(lines[2].hasSuffix(", access locked (unlock PIN for library and settings)"), lines[2])
        XCTAssertEqual(
            lines.enumerated().filter { $0.offset != 2 }.map(\.element),
            [
                "error 77: locked: unlock with the PIN first",
                "error 77: wrong PIN: 2 more tries before a lock-out",
                "ok unlocked (locks again after 5 min without input)",
                "ok 0",
                "ok locked",
                "error 77: locked: unlock with the PIN first",
                "ok bye",
            ])
    }

    /// Issue 22: a power cycle granted five fresh tries. Wrong PINs and a lock-out survive a
    /// restart (kept in the library's console-access.toml).
    func testWrongPINsAndALockOutSurviveARestart() throws {
        let dir = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hashed = try PinholeProcess.run(["console", "hash-pin"], input: "2468\n")
        let config = dir.appendingPathComponent("pinhole.toml")
        let hash = hashed.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try "[console]\n\(hash)\nmax_pin_failures = 3\nlockout = 60\n".write(
            to: config, atomically: true, encoding: .utf8)
        let arguments = [
            "run", "--board", "sim", "--clock", "virtual", "--config", config.path,
            "--library", dir.appendingPathComponent("library").path,
        ]
        let first = try PinholeProcess.run(arguments, input: "unlock 1111\nunlock 1111\nquit\n")
        XCTAssertEqual(first.lines.first, "error 77: wrong PIN: 2 more tries before a lock-out", first.output)
        // Restarted: the third wrong PIN in a row locks out, as it would have without the restart.
        let second = try PinholeProcess.run(arguments, input: "unlock 1111\nquit\n")
        XCTAssertEqual(second.lines.first, "error 77: wrong PIN: locked out for 60 s", second.output)
        // Restarted during the lock-out: still locked out, even with the right PIN.
        let third = try PinholeProcess.run(arguments, input: "unlock 2468\nstatus\nquit\n")
        XCTAssertEqual(
            third.lines.first, "error 77: locked: too many wrong PINs, try again in 60 s", third.output)
        XCTAssertTrue(
            third.lines.dropFirst().first?.contains("access locked out for 60 s") ?? false, third.output)
    }

    func testHashPINRefusesAShortPIN() throws {
        let result = try PinholeProcess.run(["console", "hash-pin"], input: "12\n")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.error.contains("4 to 32 characters"), result.error)
    }

    func testLineModeSurvivesGarbageOverlongLinesAndUnterminatedSequences() throws {
        let dir = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var generator = SystemRandomNumberGenerator()
        var noise = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        noise.removeAll { $0 == 10 || $0 == 13 || $0 == 0x1B }  // noise as one long line
        let input =
            "status\n" + String(decoding: noise, as: UTF8.self) + "\n" + String(repeating: "x", count: 5000)
            + "\n\u{1B}[1;2;3\nstatus\nquit\n"
        let run = try PinholeProcess.run(
            [
                "run", "--board", "sim", "--clock", "virtual",
                "--library", dir.appendingPathComponent("library").path,
            ], input: input)
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertTrue(run.lines.first?.hasPrefix("ok camera") ?? false, run.output)
        XCTAssertTrue(run.lines.contains { $0.hasPrefix("error 64: line too long") }, run.output)
        XCTAssertEqual(run.lines.filter { $0.hasPrefix("ok camera") }.count, 2, run.output)
        XCTAssertEqual(run.lines.last, "ok bye")
    }
}
