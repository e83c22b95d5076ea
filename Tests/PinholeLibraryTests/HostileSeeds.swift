// The fuzz targets' seed files (fuzz/NAME/corpus) for the tests that replay them, and their import from a stick.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

/// Seed files of a libFuzzer target, and what importing them does.
enum HostileSeeds {
    /// The files of `fuzz/FOLDER/corpus`, by name; at least `atLeast` of them (checked in).
    static func load(_ folder: String, atLeast: Int) throws -> [(name: String, bytes: [UInt8])] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fuzz/\(folder)/corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertGreaterThan(names.count, atLeast, "the seed corpus fuzz/\(folder)/corpus is checked in")
        return try names.map { ($0, [UInt8](try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    /// Imports `seeds` from a stick into a new library: every file is imported, a duplicate or
    /// refused with a reason, and the library is clean after it. The library stays in
    /// `directory`.
    static func importFromStick(
        _ seeds: [(name: String, bytes: [UInt8])], into directory: TemporaryDirectory
    ) throws -> (library: PhotoLibrary, report: ImportReport) {
        let stick = directory.path + "/stick"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        for (name, bytes) in seeds { try Data(bytes).write(to: URL(fileURLWithPath: stick + "/" + name)) }
        let library = try PhotoLibrary.open(
            at: FilePath(directory.path + "/library"), now: ManualWallClock().now)
        let report = try library.importFolder(FilePath(stick))
        XCTAssertEqual(
            report.imported.count + report.duplicates.count + report.failures.count, seeds.count,
            "every file is accounted for: \(report.failures)")
        for (file, reason) in report.failures { XCTAssertFalse(reason.isEmpty, file) }
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, fsckText(library))
        return (library, report)
    }
}
