// The safety net under the change tracker: a write that changes photos it did not announce.

import GRDB
import PinholeCore
import XCTest

@testable import PinholeLibrary

/// Every write path of the library runs under `ChangeRecording` in the whole test suite (debug
/// builds fail an unannounced change), so a path that forgets `willChange` fails its own tests;
/// these tests show the net itself holds, for each kind of change SQLite records.
final class ChangeRecordingTests: LibraryTestCase {
    override class var opensLibrary: Bool { true }

    func testAnUnannouncedPhotoChangeFailsTheWriteAndWritesNothing() throws {
        let photo = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        XCTAssertThrowsError(
            try library.write(policy: .fail) { db, _ in
                try db.execute(sql: "UPDATE asset SET favorite = 1 WHERE id = ?", arguments: [photo.id])
            }
        ) { error in
            XCTAssertEqual(error as? LibraryError, .unannouncedChange(ids: [photo.id]))
        }
        XCTAssertEqual(try library.assetIDs(library.query(for: .favorites)), [], "rolled back")
    }

    func testAnUnannouncedAlbumMembershipFailsTheWrite() throws {
        let photo = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let album = try library.performChanges { batch in _ = batch.createAlbum(title: "Trip") }
            .createdAlbumIDs[0]
        XCTAssertThrowsError(
            try library.write(policy: .fail) { db, _ in
                try db.execute(
                    sql: "INSERT INTO album_asset (album_id, asset_id, position) VALUES (?, ?, 0)",
                    arguments: [album, photo.id])
            }
        ) { error in
            XCTAssertEqual(error as? LibraryError, .unannouncedChange(ids: [photo.id]))
        }
        XCTAssertEqual(try library.assetIDs(library.albumQuery(album)), [])
    }

    func testAnAnnouncedChangePassesAndIsReported() throws {
        let photo = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let all = DetailsRecorder()
        let token = library.observe(.all, all.handler)
        let (_, delivery) = try library.write(policy: .fail) { db, tracker in
            try tracker.willChange(db, assets: [photo.id])
            try db.execute(sql: "UPDATE asset SET favorite = 1 WHERE id = ?", arguments: [photo.id])
        }
        library.deliver(delivery)
        XCTAssertEqual(all.all.map(\.changedIDs), [[photo.id]])
        withExtendedLifetime(token) {}
    }

    /// Release builds never refuse a shipped write: the observers hear of the photo as changed.
    func testWithTheReleasePolicyAnUnannouncedChangeReachesEveryObserver() throws {
        let photo = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let all = DetailsRecorder(), favorites = DetailsRecorder()
        let tokens = [
            library.observe(.all, all.handler),
            library.observe(library.query(for: .favorites), favorites.handler),
        ]
        let (_, delivery) = try library.write(policy: .reportAsChanged) { db, _ in
            try db.execute(sql: "UPDATE asset SET favorite = 1 WHERE id = ?", arguments: [photo.id])
        }
        library.deliver(delivery)
        XCTAssertEqual(all.all.map(\.changedIDs), [[photo.id]])
        XCTAssertEqual(favorites.all.map(\.changedIDs), [[photo.id]])
        XCTAssertEqual(try library.assetIDs(library.query(for: .favorites)), [photo.id], "written")
        withExtendedLifetime(tokens) {}
    }

    /// What was recorded in a failed (rolled back) write does not leak into the next one.
    func testARolledBackWriteLeavesNothingRecordedForTheNext() throws {
        let photo = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        struct Abort: Error {}
        XCTAssertThrowsError(
            try library.write(policy: .fail) { db, tracker in
                try tracker.willChange(db, assets: [photo.id])
                try db.execute(sql: "UPDATE asset SET hidden = 1 WHERE id = ?", arguments: [photo.id])
                throw Abort()
            })
        XCTAssertNoThrow(try library.write(policy: .fail) { _, _ in })
    }
}
