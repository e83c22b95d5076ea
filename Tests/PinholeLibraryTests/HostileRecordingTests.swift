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
        var byName: [String: String] = [:]
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
            byName[name] = outcome
        }
        // As the README says: cut back to the last whole fragment and adopted with its real
        // frame count; cut before the first frame, removed; boxes that look whole but that
        // libavformat cannot read, quarantined (kept, never removed).
        let whole = try XCTUnwrap(recordings.first { $0.name == "real-cut-4400.mp4" })
        XCTAssertTrue(
            report.adoptedRecordings.contains { $0.hasPrefix(whole.id + ": 12 frames") }, "\(report.lines)")
        XCTAssertEqual(byName["real-cut-800.mp4"], "removed")
        XCTAssertEqual(byName.filter { $0.value == "quarantined" }.map(\.key), ["nested-garbage.mp4"])
        let quarantined = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/quarantine")
        XCTAssertEqual(quarantined.count, 1, "the quarantined recording is kept: \(quarantined)")
        XCTAssertTrue(try reopened.fsck().isClean, fsckText(reopened))
        // The real clip and its cuts after a whole fragment are adopted; hostile boxes are not.
        XCTAssertGreaterThanOrEqual(outcomes["adopted", default: 0], 5, "\(outcomes)")
        XCTAssertGreaterThanOrEqual(
            outcomes["removed", default: 0] + outcomes["quarantined", default: 0], 20, "\(outcomes)")
    }
}

extension HostileRecordingTests {
    /// The same seeds on a stick as `.mp4` files to import: each is imported (what libavformat
    /// reads whole), or refused with its reason; nothing traps, and the library stays clean.
    func testEverySeedImportedAsAnMP4IsTakenOrRefusedWithItsReason() throws {
        let directory = TemporaryDirectory()
        let (library, report) = try HostileSeeds.importFromStick(
            try MP4FragmentsTests.corpus(), into: directory)
        XCTAssertGreaterThanOrEqual(report.imported.count, 1, "the real clip is imported")
        XCTAssertGreaterThanOrEqual(report.failures.count, 10, "hostile boxes are refused")
        XCTAssertEqual(try library.count(.all), report.imported.count)
    }
}
