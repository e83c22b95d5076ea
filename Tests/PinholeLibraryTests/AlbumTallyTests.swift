// The maintained album counts agree with counting the members, after every kind of change and the migration.

import Foundation
import GRDB
import PinholeCore
import XCTest

@testable import PinholeLibrary

final class AlbumTallyTests: LibraryTestCase {
    /// Each album's count by looking up every member, as the album list did before the tally.
    private func counted(_ library: PhotoLibrary) throws -> [String: Int] {
        try library.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT album.id, COUNT(asset.id) FROM album
                    LEFT JOIN album_asset ON album_asset.album_id = album.id
                    LEFT JOIN asset ON asset.id = album_asset.asset_id AND asset.deleted_ns IS NULL
                    GROUP BY album.id
                    """)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as Int) })
        }
    }

    private func listed(_ library: PhotoLibrary) throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try library.albums().map { ($0.id, $0.count) })
    }

    private func assertCountsAgree(
        _ library: PhotoLibrary, _ expected: [String: Int], _ step: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(try listed(library), expected, "after \(step)", file: file, line: line)
        XCTAssertEqual(
            try counted(library), expected, "counting the members after \(step)", file: file, line: line)
        for (id, count) in expected {
            XCTAssertEqual(
                try library.album(id: id)?.count, count, "album(id:) after \(step)", file: file, line: line)
        }
    }

    func testAlbumCountsFollowMembershipTrashRestorePurgeAndAlbumDeletion() throws {
        let library = try openLibrary()
        var ids: [String] = []
        for index in 0..<5 {
            ids.append(try library.add(jpeg: TestJPEG.make(seed: index), metadata: testMetadata()).id)
        }
        let result = try library.performChanges { batch in
            let trip = batch.createAlbum(title: "Trip")
            let home = batch.createAlbum(title: "Home")
            batch.addAssets(Array(ids[0..<4]), to: trip)
            batch.addAssets([ids[0], ids[4]], to: home)
        }
        let (trip, home) = (result.createdAlbumIDs[0], result.createdAlbumIDs[1])
        try assertCountsAgree(library, [trip: 4, home: 2], "adding to albums")

        _ = try library.performChanges { $0.addAssets([ids[1]], to: trip) }
        try assertCountsAgree(library, [trip: 4, home: 2], "adding a member again")

        try library.delete([ids[0], ids[1]])
        try assertCountsAgree(library, [trip: 2, home: 1], "moving members to the trash")

        _ = try library.performChanges { $0.addAssets([ids[1]], to: home) }
        try assertCountsAgree(library, [trip: 2, home: 1], "adding a deleted photo to an album")

        try library.restore([ids[1]])
        try assertCountsAgree(library, [trip: 3, home: 2], "restoring one")

        try library.purge([ids[0]])
        try assertCountsAgree(library, [trip: 3, home: 2], "purging a deleted member")

        _ = try library.performChanges { $0.removeAssets([ids[2]], from: trip) }
        try assertCountsAgree(library, [trip: 2, home: 2], "removing a member")

        try library.delete([ids[1]])
        try library.purge([ids[1]])
        try assertCountsAgree(library, [trip: 1, home: 1], "deleting and purging a member of both")

        _ = try library.performChanges { $0.deleteAlbum(home) }
        try assertCountsAgree(library, [trip: 1], "deleting an album")
        let empty = try library.performChanges { $0.createAlbum(title: "Empty") }.createdAlbumIDs[0]
        try assertCountsAgree(library, [trip: 1, empty: 0], "creating an empty album")
    }

    /// A photo leaving the index while not in the trash (the row deleted directly) is counted
    /// out too: the album list never counts a photo that is gone.
    func testARowDeletedOutsideTheTrashLeavesTheCount() throws {
        let library = try openLibrary()
        let id = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata()).id
        let keep = try library.add(jpeg: TestJPEG.make(seed: 2), metadata: testMetadata()).id
        let album = try library.performChanges { batch in
            let album = batch.createAlbum(title: "A")
            batch.addAssets([id, keep], to: album)
        }.createdAlbumIDs[0]
        let queue = try DatabaseQueue(path: dir.join("library.sqlite"))
        try queue.write { db in try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id]) }
        try queue.close()
        try assertCountsAgree(library, [album: 1], "a row deleted")
    }

    func testTheMigrationFillsTheCountsOfALibraryFromBeforeIt() throws {
        var expected: [String: Int] = [:]
        do {
            let library = try openLibrary()
            var ids: [String] = []
            for index in 0..<4 {
                ids.append(try library.add(jpeg: TestJPEG.make(seed: index), metadata: testMetadata()).id)
            }
            let result = try library.performChanges { batch in
                let first = batch.createAlbum(title: "First")
                batch.addAssets(ids, to: first)
                batch.createAlbum(title: "Second")
            }
            try library.delete([ids[3]])
            expected = [result.createdAlbumIDs[0]: 3, result.createdAlbumIDs[1]: 0]
        }
        // A library from before v11: no tally, no triggers.
        let queue = try DatabaseQueue(path: dir.join("library.sqlite"))
        try queue.write { db in
            for trigger in [
                "album_insert", "album_delete", "member_insert", "member_delete", "trash", "purge",
            ] {
                try db.execute(sql: "DROP TRIGGER album_tally_\(trigger)")
            }
            try db.execute(sql: "DROP TABLE album_tally")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v11-album-counts'")
        }
        try queue.close()
        try assertCountsAgree(try openLibrary(), expected, "the migration")
    }
}
