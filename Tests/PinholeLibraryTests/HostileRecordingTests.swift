// Open-time recovery of hostile `.recording` files (fuzz/mp4/corpus): never a trap, each one adopted, removed or quarantined.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class HostileRecordingTests: XCTestCase {
    /// Every seed of fuzz/mp4 left as a recording cut by a power cut (or put on the card by
    /// someone else): the next open accounts for each exactly once (adopted as a clip, removed
    /// as holding no frame, or quarantined), leaves no `.recording` behind, and the library is
    /// clean after it.
    func testEverySeedLeftAsARecordingIsAccountedForAtOpen() throws {
        let directory = TemporaryDirectory()
        let clock = ManualWallClock()
        var recordings: [(name: String, id: String, path: String)] = []
        do {
            let library = try PhotoLibrary.open(at: FilePath(directory.path), now: clock.now)
            for (name, bytes) in try MP4FragmentsTests.corpus() {
                let clip = try library.beginClip(created: nil)
                try bytes.withUnsafeBytes { try clip.write($0) }
                try clip.sync()
                recordings.append((name, clip.id, clip.temporaryPath))
            }
        }
        let reopened = try PhotoLibrary.open(at: FilePath(directory.path), now: clock.now)
        let report = reopened.recoveryReport
        XCTAssertEqual(report.failedRepairs, [])
        var outcomes: [String: Int] = [:]
        for (name, id, path) in recordings {
            let accounted = [
                ("adopted", report.adoptedRecordings.filter { $0.hasPrefix(id + ":") }.count),
                ("removed", report.removedRecordings.filter { $0 == id }.count),
                ("quarantined", report.quarantinedFiles.filter { $0.contains(id) }.count),
            ].filter { $0.1 > 0 }
            XCTAssertEqual(accounted.map(\.1), [1], "\(name): \(report.lines)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "\(name): no .recording left")
            let outcome = accounted.first?.0 ?? "none"
            XCTAssertEqual(try reopened.asset(id: id) != nil, outcome == "adopted", name)
            outcomes[outcome, default: 0] += 1
        }
        XCTAssertTrue(try reopened.fsck().isClean, fsckText(reopened))
        // The real clip and its cuts after a whole fragment are adopted; hostile boxes are not.
        XCTAssertGreaterThanOrEqual(outcomes["adopted", default: 0], 5, "\(outcomes)")
        XCTAssertGreaterThanOrEqual(
            outcomes["removed", default: 0] + outcomes["quarantined", default: 0], 20, "\(outcomes)")
        print("hostile recordings: \(outcomes.sorted { $0.key < $1.key })")
    }
}

extension HostileRecordingTests {
    /// The same seeds on a stick as `.mp4` files to import: each is imported (what libavformat
    /// reads whole), or refused with its reason; nothing traps, and the library stays clean.
    func testEverySeedImportedAsAnMP4IsTakenOrRefusedWithItsReason() throws {
        let directory = TemporaryDirectory()
        let stick = directory.path + "/stick"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        let seeds = try MP4FragmentsTests.corpus()
        for (name, bytes) in seeds {
            try Data(bytes).write(to: URL(fileURLWithPath: stick + "/" + name))
        }
        let library = try PhotoLibrary.open(
            at: FilePath(directory.path + "/library"), now: ManualWallClock().now)
        let report = try library.importFolder(FilePath(stick))
        XCTAssertEqual(
            report.imported.count + report.duplicates.count + report.failures.count, seeds.count,
            "every file is accounted for: \(report.failures)")
        XCTAssertGreaterThanOrEqual(report.imported.count, 1, "the real clip is imported")
        XCTAssertGreaterThanOrEqual(report.failures.count, 10, "hostile boxes are refused")
        for (file, reason) in report.failures { XCTAssertFalse(reason.isEmpty, file) }
        XCTAssertEqual(try library.count(.all), report.imported.count)
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, fsckText(library))
    }
}
