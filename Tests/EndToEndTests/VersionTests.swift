// End to end: `pinhole --version` prints what `git describe` (tools/version) says for this tree.

import Foundation
import XCTest

final class VersionTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testVersionIsTheGitDescription() throws {
        let run = try PinholeProcess.run(["--version"])
        XCTAssertEqual(run.status, 0, run.error)
        let printed = run.output.trimmingCharacters(in: .newlines)
        // X.Y.Z-COMMITS-gHASH (optionally -dirty), or X.Y.Z-unknown without git.
        XCTAssertNotNil(
            printed.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9]+-g[0-9a-f]+(-dirty)?|-unknown)/), printed)
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/sh")
        script.arguments = [root.appendingPathComponent("tools/version").path]
        let pipe = Pipe()
        script.standardOutput = pipe
        try script.run()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        // The build may predate a later commit or edit: the release and commit must still match.
        let commit = { (text: String) in text.replacingOccurrences(of: "-dirty", with: "") }
        XCTAssertEqual(commit(printed), commit(expected.trimmingCharacters(in: .newlines)))
    }
}
