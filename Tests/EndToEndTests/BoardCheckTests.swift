// End to end: `pinhole board check` accepts the shipped profiles and names file, line and reason of a mistake.

import Foundation
import XCTest

final class BoardCheckTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testShippedProfilesPassTheCheck() throws {
        for name in ["pi5", "pi4", "zero2w", "sim"] {
            let path = root.appendingPathComponent("board/\(name)").path
            let run = try PinholeProcess.run(["board", "check", path])
            XCTAssertEqual(run.status, 0, run.error)
            XCTAssertTrue(run.lines.first?.hasPrefix("ok \(path)/board.toml") ?? false, run.output)
            XCTAssertTrue(run.output.contains("button shutter: GPIO17 active-low pull-up"), run.output)
        }
    }

    func testAMistakeGivesFileLineAndReason() throws {
        let directory = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("board.toml")
        try "[board]\nname = \"bad\"\n\n[buttons.shutter]\nline = \"17\"\n".write(
            to: file, atomically: true, encoding: .utf8)
        let run = try PinholeProcess.run(["board", "check", directory.path])
        XCTAssertEqual(run.status, 65)
        XCTAssertEqual(
            run.error.split(separator: "\n").first.map(String.init),
            "error: \(file.path):5: line \"17\" is a number: lines are found by name (gpioinfo lists them), e.g. \"GPIO17\""
        )
        XCTAssertEqual(run.output, "")
    }

    func testBoardOffOnTheSimulatedBoardHasNothingToDoAndAMissingChipIsAClearError() throws {
        let sim = try PinholeProcess.run(["board", "off", "--board", "sim"])
        XCTAssertEqual(sim.status, 0, sim.error)
        XCTAssertEqual(sim.lines, ["ok simulated board: its outputs live and die with pinhole run"])
        guard !FileManager.default.fileExists(atPath: "/dev/gpiochip0") else {
            throw XCTSkip("this machine has GPIO chips: not driving them from a test")
        }
        let pi5 = try PinholeProcess.run([
            "board", "off", "--board", root.appendingPathComponent("board/pi5").path,
        ])
        XCTAssertEqual(pi5.status, 1)
        XCTAssertTrue(pi5.error.contains("error: torch GPIO26: GPIO line 'GPIO26' not found"), pi5.error)
    }
}
