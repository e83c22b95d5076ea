// Tests of Recently Deleted: delete, restore, purge on demand, expiry, interrupted purges.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class TrashTests: LibraryTestCase {
    func testDeleteRestoreAndPurge() throws {
        let library = try openLibrary()
        let a = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let b = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata())
        let album = try library.performChanges { batch in
            batch.addAssets([a.id, b.id], to: batch.createAlbum(title: "Both"))
        }.createdAlbumIDs[0]

        clock.advance(seconds: 5)
        try library.delete([a.id])
        XCTAssertEqual(try library.assetIDs(.all), [b.id])
        XCTAssertEqual(try library.assetIDs(library.query(for: .recentlyDeleted)), [a.id])
        XCTAssertEqual(try library.asset(id: a.id)?.deleted, clock.time)
        XCTAssertEqual(try library.album(id: album)?.count, 1)

        try library.restore([a.id])
        XCTAssertEqual(try library.assetIDs(.all), [a.id, b.id])
        XCTAssertEqual(
            try library.assetIDs(library.albumQuery(album)), [a.id, b.id],
            "restored photos return to their albums")

        XCTAssertThrowsError(try library.purge([a.id])) { error in
            XCTAssertEqual(error as? LibraryError, .notInRecentlyDeleted(id: a.id))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.fileURLPath(of: a).string))

        try library.delete([a.id])
        try library.purge([a.id])
        XCTAssertNil(try library.asset(id: a.id))
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.fileURLPath(of: a).string))
        XCTAssertEqual(try library.assetIDs(library.albumQuery(album)), [b.id])
        XCTAssertTrue(try library.fsck().isClean)

        try library.delete([b.id])
        XCTAssertEqual(try library.emptyRecentlyDeleted(), [b.id])
        XCTAssertEqual(try library.count(AssetQuery.all.trash(.included)), 0)
    }

    func testExpiredDeletionsArePurgedAtOpen() throws {
        let options = LibraryOptions(trashRetentionDays: 30)
        let (old, young): (Asset, Asset)
        do {
            let library = try PhotoLibrary.open(at: FilePath(dir.path), options: options, now: clock.now)
            old = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
            young = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata())
            try library.delete([old.id])
            clock.advance(seconds: 10 * 86_400)
            try library.delete([young.id])
        }
        clock.advance(seconds: 20 * 86_400)
        let library = try PhotoLibrary.open(at: FilePath(dir.path), options: options, now: clock.now)
        XCTAssertEqual(library.recoveryReport.expiredPurges, [old.id])
        XCTAssertNil(try library.asset(id: old.id))
        XCTAssertNotNil(try library.asset(id: young.id))
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.fileURLPath(of: old).string))
    }

    func testInterruptedPurgesAreFinishedOrUndone() throws {
        let (kept, gone): (Asset, Asset)
        do {
            let library = try openLibrary()
            kept = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
            gone = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata())
            try library.delete([gone.id])
            try library.purge([gone.id])
        }
        let fm = FileManager.default
        // Crash after the move but before the commit: the photo is still indexed.
        try fm.moveItem(atPath: dir.join(kept.path), toPath: dir.join(".purging/\(kept.id).jpg"))
        // Crash after the commit but before the unlink: the index no longer has it.
        writeFile(dir.join(".purging/\(gone.id).jpg"), contents: Data(TestJPEG.make(seed: 1)))
        let library = try openLibrary()
        XCTAssertEqual(library.recoveryReport.restoredPurges, [kept.id])
        XCTAssertEqual(library.recoveryReport.completedPurges, [gone.id])
        XCTAssertTrue(library.recoveryReport.missingFiles.isEmpty)
        XCTAssertTrue(fm.fileExists(atPath: dir.join(kept.path)))
        XCTAssertTrue(try library.fsck().isClean, fsckText(library))
    }

    func testAddingAgainAfterPurgingTheOnlyPhotoOfTheDay() throws {
        let library = try openLibrary()
        let first = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        try library.delete([first.id])
        try library.purge([first.id])
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: POSIXFiles.parentDirectory(of: library.fileURLPath(of: first).string)),
            "the emptied day directory is removed")
        let second = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata())
        XCTAssertEqual(
            POSIXFiles.parentDirectory(of: second.path), POSIXFiles.parentDirectory(of: first.path))
        XCTAssertTrue(try library.fsck().isClean)
    }
}
