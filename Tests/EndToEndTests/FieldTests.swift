// End to end on the simulated board: a trigger input fires two photos into the library.

import Foundation
import XCTest

final class FieldTests: XCTestCase {
    func testSimPressTriggerTakesTheTriggersShots() throws {
        let library = try PinholeProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        let run = try PinholeProcess.run(
            ["run", "--board", "sim", "--library", library.path],
            input: "sim press trigger\nsim press trigger nothere\nlibrary list --json\nquit\n")
        XCTAssertEqual(run.status, 0, run.error)
        let lines = run.lines
        XCTAssertEqual(lines.count, 4, run.output)
        XCTAssertTrue(lines[0].hasPrefix("ok triggered pir"), lines[0])
        XCTAssertEqual(lines[0].components(separatedBy: "saved ").count - 1, 2, "two shots: \(lines[0])")
        XCTAssertTrue(lines[1].hasPrefix("error "), lines[1])
        let listed = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.count, 2)
        XCTAssertTrue(run.error.contains("trigger pir fired"), run.error)
    }
}
