// End to end: `pinhole library …` in another process while `pinhole run` runs. The appliance
// sees the change (status photo count); a partial file of a live writer is left alone.

import Foundation
import XCTest

final class CrossProcessLibraryTests: XCTestCase {
    private var cleanups: [() -> Void] = []

    override func tearDown() {
        for cleanup in cleanups.reversed() { cleanup() }
        cleanups = []
    }

    func testChangesByAnotherProcessReachTheRunningApplianceAndItsPartialFilesAreLeftAlone() throws {
        let dir = try PinholeProcess.temporaryDirectory()
        cleanups.append { try? FileManager.default.removeItem(at: dir) }
        let appliance = dir.appendingPathComponent("ttyAppliance")
        let terminal = dir.appendingPathComponent("ttyTerminal")
        let socat = try ConsoleTestTools.linkedPtys(
            appliance, terminal, log: dir.appendingPathComponent("socat.log"))
        cleanups.append { socat.stop() }
        let library = dir.appendingPathComponent("library")
        let process = try BackgroundProcess(
            try PinholeProcess.binary().path,
            [
                "run", "--board", "sim", "--library", library.path, "--console", appliance.path,
                "--console-mode", "line",
            ], errorFile: dir.appendingPathComponent("pinhole.log"))
        cleanups.append { process.stop() }
        var end = try RawTTY(path: terminal.path)
        defer { end.close() }
        XCTAssertTrue(try end.ask("status\r", until: "ok camera").contains("photos 0"))
        try end.write("capture\r")
        let saved = try end.readLine(containing: "ok saved").split(separator: " ")
        let id = String(saved[2])

        func otherProcess(_ words: [String]) throws -> String {
            let run = try PinholeProcess.run(["library", "--library", library.path] + words)
            XCTAssertEqual(run.status, 0, "\(words): \(run.output) \(run.error)")
            return run.output
        }
        // Deleted, restored, hidden by another process: the appliance's count follows.
        _ = try otherProcess(["delete", id])
        XCTAssertTrue(try end.ask("status\r", until: "photos 0").contains("photos 0"))
        _ = try otherProcess(["restore", id])
        XCTAssertTrue(try end.ask("status\r", until: "photos 1").contains("photos 1"))
        _ = try otherProcess(["favorite", id])
        XCTAssertTrue(try end.ask("library show \(id) --json\r", until: "\"favorite\":true").contains(id))

        // A live writer's partial file (`.NAME.tmp` while it is being written): another
        // process opening the library does not take it for debris of a crash.
        let day = try XCTUnwrap(
            FileManager.default.enumerator(atPath: library.appendingPathComponent("originals").path)?
                .compactMap { $0 as? String }.first { $0.hasSuffix(".jpg") })
        let partial = library.appendingPathComponent("originals").appendingPathComponent(day)
            .deletingLastPathComponent().appendingPathComponent(
                ".01a20000-0000-7000-8000-000000000000.jpg.tmp")
        try Data([0xFF, 0xD8, 0xFF]).write(to: partial)
        _ = try otherProcess(["list", "--json"])
        let check = try PinholeProcess.run(["library", "--library", library.path, "fsck"])
        XCTAssertTrue(check.output.contains("partial file"), "fsck reports it, read-only: \(check.output)")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: partial.path), "a live writer's file was removed")
        XCTAssertTrue(process.process.isRunning, process.errors)
    }
}
