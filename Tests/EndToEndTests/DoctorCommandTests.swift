// End to end: `pinhole doctor --board pi5` on this machine (no Pi) explains what is missing, with fixes.

import Foundation
import XCTest

final class DoctorCommandTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testAgainstThePi5ProfileEveryMissingPieceIsNamedWithItsFix() throws {
        guard !FileManager.default.fileExists(atPath: "/proc/device-tree") else {
            throw XCTSkip("this machine has a device tree: the doctor's findings depend on the board")
        }
        let run = try PinholeProcess.run(
            [
                "doctor", "--board", root.appendingPathComponent("board/pi5").path, "--config", "/dev/null",
                "--library", "/nonexistent/pinhole/library",
            ],
            environment: ["LIBCAMERA_LOG_LEVELS": "*:FATAL"])
        XCTAssertEqual(run.status, 1, run.output + run.error)
        let lines = run.lines
        XCTAssertTrue(lines.first?.hasPrefix("board pi5:") ?? false, run.output)
        for name in ["camera", "gpio lines", "overlay", "library"] {
            XCTAssertTrue(
                lines.contains { $0.hasPrefix("problem \(name): ") }, "\(name) not reported:\n\(run.output)")
        }
        XCTAssertTrue(
            lines.contains(
                "problem overlay: this machine has no device tree, so pinhole-buttons-pi5, pinhole-uart-pi5 cannot be applied"
            ),
            run.output)
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix("problem gpio lines: GPIO5, GPIO6, GPIO12, GPIO13, GPIO16, GPIO17, ")
                    && $0.hasSuffix(" are on no chip (no GPIO chip present)")
            }, run.output)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("problem uart: /dev/ttyAMA0 does not exist") }, run.output)
        // Doctor loads the video shim and libav (as the first recording would) and names its version.
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix(
                    "ok video encoder: recordings use libx264 (auto: no V4L2 H.264 encoder on this board (Pi 5, x86): software libx264); 1920x1080 at 30 fps; FFmpeg "
                )
            }, run.output)
        // Every problem comes with its fix on the next line.
        for (index, line) in lines.enumerated() where line.hasPrefix("problem ") {
            XCTAssertTrue(
                index + 1 < lines.count && lines[index + 1].hasPrefix("  fix: "), "no fix after: \(line)")
        }
        XCTAssertTrue(lines.last?.hasSuffix("items need attention") ?? false, run.output)
    }

    func testAnUnknownBoardIsAClearErrorWithStatus65() throws {
        let run = try PinholeProcess.run(["doctor", "--board", "no-such-board", "--config", "/dev/null"])
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.error.contains("no board profile 'no-such-board'"), run.error)
    }
}
