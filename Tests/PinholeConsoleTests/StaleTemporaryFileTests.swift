// Temporary files a power cut leaves beside the configuration are removed at the next start or save.

import Foundation
import PinholeConfiguration
import XCTest
import SystemPackage

final class StaleTemporaryFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-stale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    /// Creates `name` in the directory, last modified `age` seconds ago.
    private func leave(_ name: String, age: TimeInterval) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try "quality = 9".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
        return path
    }

    private var names: Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }

    func testAtStartEveryTemporaryOfTheFileGoesAndNothingElse() throws {
        let file = try leave("pinhole.toml", age: 0)
        for name in [
            ".pinhole.toml.3k9x0a.tmp", "pinhole.toml.tmp-4242", "pinhole.toml.tmp",
            "camera-settings.toml.tmp-17",
        ] {
            _ = try leave(name, age: 0)
        }
        // Not temporaries of pinhole.toml: another file's, a user's backup, a bare prefix.
        for name in [".other.toml.abc.tmp", "pinhole.toml.bak", ".pinhole.toml..tmp", "pinhole.toml.tmpfile"]
        {
            _ = try leave(name, age: 0)
        }
        let removed = Configuration.removeStaleTemporaries(of: FilePath(file))
        XCTAssertEqual(
            Set(removed.map { $0.lastComponent?.string ?? "" }),
            [".pinhole.toml.3k9x0a.tmp", "pinhole.toml.tmp-4242", "pinhole.toml.tmp"])
        XCTAssertEqual(
            names,
            [
                "pinhole.toml", "camera-settings.toml.tmp-17", ".other.toml.abc.tmp", "pinhole.toml.bak",
                ".pinhole.toml..tmp", "pinhole.toml.tmpfile",
            ])
        let settings = directory.appendingPathComponent("camera-settings.toml").path
        XCTAssertEqual(Configuration.removeStaleTemporaries(of: FilePath(settings)).count, 1)
        XCTAssertFalse(names.contains("camera-settings.toml.tmp-17"))
    }

    func testASaveRemovesOldTemporariesButNotAWriteInProgress() throws {
        let file = try leave("pinhole.toml", age: 0)
        try "[capture]\nquality = 90\n".write(toFile: file, atomically: false, encoding: .utf8)
        _ = try leave(".pinhole.toml.old1.tmp", age: 3600)
        _ = try leave("pinhole.toml.tmp-99", age: 120)
        _ = try leave(".pinhole.toml.busy.tmp", age: 0)  // another process writing right now
        let saved = try Configuration.save("capture", "quality", literal: "80", file: FilePath(file))
        XCTAssertEqual(saved.jpegQuality, 80)
        XCTAssertEqual(names, ["pinhole.toml", ".pinhole.toml.busy.tmp"])
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "[capture]\nquality = 80\n")
    }

    func testAMissingDirectoryOrBareNameRemovesNothing() {
        XCTAssertEqual(
            Configuration.removeStaleTemporaries(of: FilePath(directory.path + "/absent/pinhole.toml")), [])
        XCTAssertEqual(Configuration.removeStaleTemporaries(of: FilePath(directory.path + "/")), [])
    }
}
