// End to end: `pinhole run` refusing to start says why (file, line, reason) and nothing else.

import Foundation
import XCTest

final class StartupErrorTests: XCTestCase {
    func testABadConfigurationIsReportedWithoutTheUsageText() throws {
        let dir = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("pinhole.toml")
        try "[capture]\nquality = 500\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try PinholeProcess.run(
            [
                "run", "--board", "sim", "--config", config.path, "--library",
                dir.appendingPathComponent("lib").path,
            ])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.error.contains("\(config.path):2: 'quality' is 500, outside 1…100"), run.error)
        XCTAssertFalse(run.error.contains("Usage:"), run.error)
        XCTAssertFalse(run.error.contains("--help"), run.error)
    }

    func testAnUnknownBoardIsReportedWithoutTheUsageText() throws {
        let dir = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try PinholeProcess.run(
            ["run", "--board", "no-such-board", "--library", dir.appendingPathComponent("lib").path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.error.contains("no-such-board"), run.error)
        XCTAssertFalse(run.error.contains("Usage:"), run.error)
    }

    func testAMistakeInTheArgumentsStillShowsTheUsage() throws {
        let run = try PinholeProcess.run(["run", "--no-such-option"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.error.contains("Usage: pinhole run"), run.error)
    }
}
