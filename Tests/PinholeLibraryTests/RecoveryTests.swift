// Tests of the open-time recovery pass and fsck on damaged libraries.

import Foundation
import GRDB
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class RecoveryTests: LibraryTestCase {
    func testRecoveryRemovesTempFilesAdoptsOrphansAndQuarantinesJunk() throws {
        let kept: Asset
        let lost: Asset
        do {
            let library = try openLibrary()
            kept = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
            lost = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata())
        }
        let fm = FileManager.default
        // A partial write, an unindexed original, a truncated original, a foreign file, a lost original.
        try fm.createDirectory(atPath: dir.join("originals/2025/01/02"), withIntermediateDirectories: true)
        let orphanID = "01900000-0000-7000-8000-000000000001"
        writeFile(dir.join("originals/2025/01/02/.\(orphanID).jpg.tmp"), contents: Data([0xFF, 0xD8]))
        writeFile(
            dir.join("originals/2025/01/02/\(orphanID).jpg"),
            contents: Data(TestJPEG.make(width: 40, height: 30)))
        let truncatedID = "01900000-0000-7000-8000-000000000002"
        writeFile(
            dir.join("originals/2025/01/02/\(truncatedID).jpg"), contents: Data(TestJPEG.make().prefix(200)))
        writeFile(dir.join("originals/2025/01/02/notes.txt"), contents: Data("hello".utf8))
        try fm.removeItem(atPath: dir.join(lost.path))

        let before = try openLibrary()
        let report = before.recoveryReport
        XCTAssertEqual(report.removedTempFiles, ["originals/2025/01/02/.\(orphanID).jpg.tmp"])
        XCTAssertEqual(report.adoptedAssets, [orphanID])
        XCTAssertEqual(
            Set(report.quarantinedFiles),
            ["originals/2025/01/02/\(truncatedID).jpg", "originals/2025/01/02/notes.txt"])
        XCTAssertEqual(report.missingFiles, [lost.id])
        XCTAssertNil(report.rebuiltIndex)

        let adopted = try XCTUnwrap(before.asset(id: orphanID))
        XCTAssertEqual(adopted.pixelWidth, 40)
        XCTAssertEqual(adopted.pixelHeight, 30)
        XCTAssertEqual(adopted.added, Identifier.time(of: orphanID))
        XCTAssertNotNil(try before.asset(id: kept.id))
        XCTAssertTrue(fm.fileExists(atPath: dir.join("quarantine/originals_2025_01_02_notes.txt")))

        let fsck = try before.fsck()
        XCTAssertEqual(fsck.missingFiles, [lost.id])
        XCTAssertEqual(fsck.quarantinedFiles, 2)
        XCTAssertTrue(fsck.tempFiles.isEmpty && fsck.orphanFiles.isEmpty)
        XCTAssertFalse(fsck.isClean)
    }

    func testFsckReportsWithoutChangingAnything() throws {
        let library = try openLibrary()
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let temp = dir.join("originals/.x.jpg.tmp")
        writeFile(temp, contents: Data([1]))
        var report = try library.fsck()
        XCTAssertEqual(report.tempFiles, ["originals/.x.jpg.tmp"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp))
        try FileManager.default.removeItem(atPath: temp)

        // Corrupt the original's content without changing its size: only --verify sees it.
        var bytes = TestJPEG.make()
        bytes[bytes.count / 2] ^= 0xFF
        writeFile(library.fileURLPath(of: asset).string, contents: Data(bytes))
        report = try library.fsck()
        XCTAssertTrue(report.isClean, report.lines.joined(separator: "\n"))
        report = try library.fsck(verifyChecksums: true)
        XCTAssertEqual(report.checksumMismatches, [asset.id])
    }

    func testDamagedDatabaseIsSetAsideAndTheIndexRebuilt() throws {
        var ids: [String] = []
        do {
            let library = try openLibrary()
            for seed in 0..<3 {
                ids.append(try library.add(jpeg: TestJPEG.make(seed: seed), metadata: testMetadata()).id)
            }
        }
        let fm = FileManager.default
        for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: dir.join("library.sqlite" + suffix)) }
        writeFile(dir.join("library.sqlite"), contents: Data(repeating: 0x5A, count: 8192))

        let library = try openLibrary()
        let rebuilt = try XCTUnwrap(library.recoveryReport.rebuiltIndex)
        XCTAssertTrue(rebuilt.contains("quarantine/library-"), rebuilt)
        XCTAssertEqual(library.recoveryReport.adoptedAssets.sorted(), ids.sorted())
        XCTAssertEqual(Set(try library.assetIDs(.all)), Set(ids))
        XCTAssertTrue(try library.fsck().isClean)
    }

    func testNewerSchemaIsRefusedAndLeftUntouched() throws {
        do { _ = try openLibrary() }
        let queue = try DatabaseQueue(path: dir.join("library.sqlite"))
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v999-future')") }
        try queue.close()
        XCTAssertThrowsError(try openLibrary()) { error in
            guard case LibraryError.schemaTooNew = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("newer Pinhole"))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.join("library.sqlite")))
    }

    func testAVersion1DatabaseIsMigratedWithItsData() throws {
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: dir.join("library.sqlite"))
        try LibrarySchema.shippedMigrator.migrate(queue, upTo: "v1")
        try queue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO album (id, title, folder_id, position, created_ns) VALUES ('a', 'Old', NULL, 0, 5)"
            )
        }
        try queue.close()
        let library = try openLibrary()
        XCTAssertEqual(try library.albums().map(\.title), ["Old"])
        XCTAssertEqual(try library.album(id: "a")?.created.utcOffsetSeconds, 0)
    }

    func testOnlyTheFirstOpenerRepairsWhileOthersShare() throws {
        var first: PhotoLibrary? = try openLibrary()
        XCTAssertNil(first?.recoveryReport.deferred)
        // What another process's in-flight write looks like: it must not be touched.
        let temp = dir.join("originals/.01900000-0000-7000-8000-000000000001.jpg.tmp")
        writeFile(temp, contents: Data([0xFF, 0xD8]))
        let second = try openLibrary()
        XCTAssertNotNil(second.recoveryReport.deferred)
        XCTAssertTrue(second.recoveryReport.lines.first?.hasPrefix("recovery deferred:") ?? false)
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp))
        XCTAssertNotNil(
            try second.add(jpeg: TestJPEG.make(), metadata: testMetadata()), "a sharing opener works normally"
        )
        XCTAssertEqual(try first?.count(.all), 1)
        first = nil
        withExtendedLifetime(second) {}
    }

    func testTheNextFirstOpenerRepairs() throws {
        do { _ = try openLibrary() }
        let temp = dir.join("originals/.01900000-0000-7000-8000-000000000001.jpg.tmp")
        writeFile(temp, contents: Data([0xFF, 0xD8]))
        let library = try openLibrary()
        XCTAssertEqual(
            library.recoveryReport.removedTempFiles,
            ["originals/.01900000-0000-7000-8000-000000000001.jpg.tmp"])
    }

    /// A partial file that cannot be removed (immutable: unlink fails with EPERM, even for
    /// root) is reported as a failed repair, never as removed, and the next open tries again.
    func testATemporaryFileIsReportedRemovedOnlyWhenItWas() throws {
        let dir = TemporaryDirectory()
        do { _ = try PhotoLibrary.open(at: FilePath(dir.path), now: ManualWallClock().now) }
        let name = "originals/.01900000-0000-7000-8000-000000000001.jpg.tmp"
        writeFile(dir.join(name), contents: Data([0xFF, 0xD8]))
        try chattr("+i", dir.join(name))
        defer { try? chattr("-i", dir.join(name), check: false) }  // if an assertion below stops the test
        let stuck = try PhotoLibrary.open(at: FilePath(dir.path), now: ManualWallClock().now).recoveryReport
        XCTAssertEqual(stuck.removedTempFiles, [])
        XCTAssertEqual(stuck.failedRepairs.count, 1, "\(stuck.lines)")
        let failure = stuck.failedRepairs.first ?? "none"
        XCTAssertTrue(failure.hasPrefix("could not remove partial file \(name): "), "\(stuck.lines)")
        XCTAssertTrue(stuck.lines.contains(failure))
        XCTAssertFalse(stuck.isClean)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.join(name)))
        try chattr("-i", dir.join(name))
        let repaired = try PhotoLibrary.open(at: FilePath(dir.path), now: ManualWallClock().now)
            .recoveryReport
        XCTAssertEqual(repaired.removedTempFiles, [name])
        XCTAssertEqual(repaired.failedRepairs, [])
    }

    func testOpeningAPathThatIsAFileFailsClearly() throws {
        writeFile(dir.join("plain"), contents: Data([1]))
        XCTAssertThrowsError(
            try PhotoLibrary.open(at: FilePath(dir.join("plain")), now: ManualWallClock().now)
        ) {
            error in
            XCTAssertTrue("\(error)".contains("library file error"), "\(error)")
        }
    }
}
