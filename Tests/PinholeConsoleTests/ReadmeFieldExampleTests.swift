// The README's field-operation configuration examples parse as what they claim to be.

import Foundation
import PinholeAppliance
import PinholeBoard
import PinholeConfiguration
import XCTest
import SystemPackage

final class ReadmeFieldExampleTests: XCTestCase {
    /// The ```toml blocks of the section `## In the field` (up to the next `## ` heading), with the
    /// line each starts on.
    private func fieldBlocks() throws -> [(line: Int, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let lines = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [(Int, String)] = []
        var inField = false
        var current: (Int, [String])?
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("## ") { inField = line.hasPrefix("## In the field") }
            guard inField else { continue }
            if let block = current {
                if line == "```" {
                    blocks.append((block.0, block.1.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    current = (block.0, block.1 + [line])
                }
            } else if line == "```toml" {
                current = (index + 2, [])
            }
        }
        return blocks
    }

    func testEveryFieldConfigurationExampleParses() throws {
        let blocks = try fieldBlocks()
        XCTAssertGreaterThanOrEqual(blocks.count, 6, "timelapse, storage, camera trap (board and file), GPS")
        var boards = 0, files = 0
        for (line, text) in blocks {
            if text.contains("[triggers.") {
                boards += 1
                let profile = try BoardProfile.parse(
                    "[board]\nname = \"readme\"\n" + text, file: FilePath("README.md:\(line)"), name: "readme"
                )
                XCTAssertFalse(profile.triggers.isEmpty, "README.md:\(line)")
            } else {
                files += 1
                XCTAssertNoThrow(try Configuration.parse(text, file: FilePath("README.md:\(line)")), text)
            }
        }
        XCTAssertEqual(boards, 1)
        XCTAssertGreaterThanOrEqual(files, 5)
    }

    func testTheWorkedExamplesSayWhatTheCodeDoes() throws {
        let blocks = try fieldBlocks().map(\.text)
        let timelapse = try XCTUnwrap(blocks.first { $0.contains("[timelapse]") })
        let pole = try Configuration.parse(timelapse, file: "README.md")
        XCTAssertEqual(pole.whenFull, "recycle")
        XCTAssertEqual(pole.standbyAfterSeconds, 30)
        XCTAssertEqual(pole.timelapse?.album, "Site")
        let trap = try XCTUnwrap(blocks.first { $0.contains("[triggers.pir]") })
        let pir = try XCTUnwrap(
            try BoardProfile.parse("[board]\nname = \"t\"\n" + trap, file: "README.md", name: "t").triggers
                .first)
        XCTAssertEqual(pir.shots, 3)
        XCTAssertEqual(pir.holdOff, .seconds(15))
        XCTAssertEqual(pir.interval, .milliseconds(700))
        XCTAssertEqual(pir.album, "Trap")
    }
}
