// The temporary files a power cut leaves beside the settings and timelapse state files go at the next start.

import Foundation
import XCTest

final class StateFileTemporaryTests: XCTestCase {
    func testTemporariesOfTheStateFilesAreRemovedAtStartAndTheirFilesKept() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let arguments = ["run", "--board", "sim", "--library", library.path, "--clock", "virtual"]
        let first = try PinholeProcess.run(arguments, input: "quit\n")
        XCTAssertEqual(first.status, 0, first.error)
        // What an interrupted durable write of each leaves (DurableFiles: `.NAME.RANDOM.tmp`).
        let left = [".camera-settings.toml.1x2y3z.tmp", ".timelapse-state.toml.4a5b6c.tmp"]
        for name in left {
            try "half a write".write(
                to: library.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        let unrelated = library.appendingPathComponent(".notes.1x2y3z.tmp")
        try "not ours".write(to: unrelated, atomically: false, encoding: .utf8)

        let second = try PinholeProcess.run(arguments, input: "status\nquit\n")
        XCTAssertEqual(second.status, 0, second.error)
        XCTAssertTrue(second.lines.first?.hasPrefix("ok camera") == true, second.output)
        for name in left {
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: library.appendingPathComponent(name).path), name)
            XCTAssertTrue(
                second.error.contains("removed \(library.path)/\(name), left by an interrupted write"),
                second.error)
        }
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: unrelated.path), "another file's temporary stays")
    }
}
