// End to end: `pinhole --version` prints `git describe` of the commit it was built from.

import Foundation
import XCTest

final class VersionTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", root.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func testVersionIsTheGitDescriptionOfTheBuiltCommit() throws {
        let run = try PinholeProcess.run(["--version"])
        XCTAssertEqual(run.status, 0, run.error)
        let printed = run.output.trimmingCharacters(in: .newlines)
        guard try git(["rev-parse", "--git-dir"]).status == 0 else {
            XCTAssertTrue(printed.hasSuffix("-unknown"), "without git: \(printed)")
            return
        }
        // RELEASE-COMMITS-gHASH[-dirty], as tools/version writes it from `git describe`.
        let match = try XCTUnwrap(
            printed.wholeMatch(of: /([0-9]+\.[0-9]+\.[0-9]+)-([0-9]+)-g([0-9a-f]{7,})(-dirty)?/), printed)
        let hash = String(match.output.3)
        // The binary may have been built before a later commit: the hash must name a real
        // commit, and the count be that commit's distance from the release (or the root).
        XCTAssertEqual(try git(["cat-file", "-e", "\(hash)^{commit}"]).status, 0, "\(hash) is not a commit")
        let tag = try git(["describe", "--tags", "--match", "v[0-9]*", "--abbrev=0", hash])
        let range = tag.status == 0 ? "\(tag.output)..\(hash)" : hash
        XCTAssertEqual(try git(["rev-list", "--count", range]).output, String(match.output.2))
        if tag.status == 0 { XCTAssertEqual("v" + match.output.1, tag.output) }
    }
}
