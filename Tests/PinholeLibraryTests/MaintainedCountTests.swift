// The maintained photo counts agree with counting the rows, after every kind of change and a migration.

import Foundation
import GRDB
import PinholeCore
import XCTest

@testable import PinholeLibrary

final class MaintainedCountTests: LibraryTestCase {
    /// Every combination of the filters the tally answers, in each trash scope.
    private static var tallyQueries: [AssetQuery] {
        var queries: [AssetQuery] = []
        for trash in [TrashScope.excluded, .only, .included] {
            for hidden in [nil, true, false] as [Bool?] {
                for includesHidden in [false, true] where !(includesHidden && hidden != nil) {
                    for favorite in [nil, true, false] as [Bool?] {
                        for edited in [nil, true, false] as [Bool?] {
                            for camera in [nil, "a", "b", "nobody"] as [String?] {
                                var query = AssetQuery.all.trash(trash)
                                if includesHidden { query = query.includingHidden() }
                                if let hidden { query = query.filter(.hidden(hidden)) }
                                if let favorite { query = query.filter(.favorite(favorite)) }
                                if let edited { query = query.filter(.edited(edited)) }
                                if let camera { query = query.filter(.camera(camera)) }
                                queries.append(query)
                            }
                        }
                    }
                }
            }
        }
        return queries
    }

    /// The cameras of the per-camera smart albums.
    private func cameraAlbums(_ library: PhotoLibrary) throws -> [String] {
        try library.smartAlbums().compactMap { album -> String? in
            if case .camera(let camera) = album { return camera }
            return nil
        }
    }

    /// The count by scanning the rows, as before the tally existed.
    private func scanned(_ library: PhotoLibrary, _ query: AssetQuery) throws -> Int {
        let (sql, arguments) = QuerySQL(query).count()
        return try library.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    private func assertCountsAgree(
        _ library: PhotoLibrary, _ queries: [AssetQuery], _ step: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for query in queries {
            XCTAssertNotNil(AssetTally.count(query), "the tally answers \(query.filters)")
            let expected = try scanned(library, query)
            XCTAssertEqual(
                try library.count(query), expected,
                "after \(step): \(query.filters) trash \(query.trash) hidden \(query.includesHidden)",
                file: file, line: line)
        }
    }

    func testCountsFollowEveryKindOfChange() throws {
        let library = try openLibrary()
        var random = SeededRandom(seed: 15)
        var ids: [String] = []
        let cameras: [String?] = ["a", "b", nil]
        for index in 0..<12 {
            ids.append(
                try library.add(
                    jpeg: TestJPEG.make(seed: index), metadata: testMetadata(camera: cameras[index % 3])
                ).id)
        }
        let smart = [SmartAlbum.allPhotos, .favorites, .edited, .hidden, .recentlyDeleted, .camera("a")]
            .map { library.query(for: $0) }
        try assertCountsAgree(library, Self.tallyQueries, "adding")
        var kinds: Set<Int> = []
        for step in 0..<60 {
            let some = (0..<random.next(in: 1...3)).map { _ in ids[random.next(in: 0...(ids.count - 1))] }
            let asset = try XCTUnwrap(library.asset(id: some[0]))
            let kind = random.next(in: 0...8)
            var done = true
            switch kind {
            case 0: try library.setFavorite(some, true)
            case 1: try library.setFavorite(some, false)
            case 2: _ = try library.performChanges { $0.setHidden(some, random.next() % 2 == 0) }
            case 3: try library.delete(some)
            case 4: try library.restore(some.filter { (try? library.asset(id: $0)?.isDeleted) == true })
            case 5:
                guard asset.isDeleted else { done = false; break }
                try library.purge([asset.id])
                ids.removeAll { $0 == asset.id }
                let added = try library.add(
                    jpeg: TestJPEG.make(seed: 100 + step), metadata: testMetadata(camera: cameras[step % 3]))
                ids.append(added.id)
            case 6:
                guard !asset.isDeleted else { done = false; break }
                _ = try library.applyAdjustments(PinholeAdjustments(rotation: 90), to: asset.id)
            case 7:
                guard asset.isEdited else { done = false; break }
                try library.revertEdit(of: asset.id)
            default:
                let created = try library.performChanges { batch in
                    let album = batch.createAlbum(title: "step \(step)")
                    let photo = batch.createAsset(
                        jpeg: TestJPEG.make(seed: 200 + step), metadata: testMetadata(camera: "b"))
                    batch.addAssets([photo], to: album)
                    batch.setFavorite([photo], true)
                }
                ids += created.createdAssetIDs
            }
            if done { kinds.insert(kind) }
            try assertCountsAgree(library, smart, "step \(step) (change \(kind))")
        }
        XCTAssertEqual(kinds, Set(0...8), "the seeded sequence exercises every kind of change")
        try assertCountsAgree(library, Self.tallyQueries, "the whole sequence")
        XCTAssertEqual(try cameraAlbums(library), ["a", "b"])
    }

    func testAdoptedPhotosAreCountedAndMigrationFillsTheTally() throws {
        do {
            let library = try openLibrary()
            for index in 0..<4 {
                _ = try library.add(jpeg: TestJPEG.make(seed: index), metadata: testMetadata(camera: "a"))
            }
            try library.setFavorite([try library.assetIDs(.all)[0]], true)
        }
        // An index from before the tally: drop it and step the schema back to before v6.
        let queue = try DatabaseQueue(path: dir.join("library.sqlite"))
        try queue.write { db in
            try db.execute(
                sql: """
                    DROP TRIGGER asset_tally_insert; DROP TRIGGER asset_tally_delete;
                    DROP TRIGGER asset_tally_update; DROP TABLE asset_tally;
                    DROP INDEX asset_by_added_visible; CREATE INDEX asset_by_added ON asset(added_ns);
                    DELETE FROM grdb_migrations
                        WHERE identifier IN ('v6-maintained-counts', 'v10-tally-by-media-type');
                    """)
        }
        try queue.close()
        // And an original that only the recovery pass will find.
        let stray = try exifJPEG(metadata: testMetadata(camera: "b"))
        try FileManager.default.createDirectory(
            atPath: dir.join("originals/2025/01/02"), withIntermediateDirectories: true)
        writeFile(
            dir.join("originals/2025/01/02/01900000-0000-7000-8000-0000000000aa.jpg"), contents: Data(stray))

        let library = try openLibrary()
        XCTAssertEqual(library.recoveryReport.adoptedAssets.count, 1)
        XCTAssertEqual(try library.count(.all), 5)
        XCTAssertEqual(try library.count(AssetQuery.all.filter(.favorite(true))), 1)
        XCTAssertEqual(try library.count(AssetQuery.all.filter(.camera("a"))), 4)
        try assertCountsAgree(library, Self.tallyQueries, "migration and adoption")
    }

    func testCountsByMediaTypeFollowTheMediaTypeAndTheMigrationFillsThem() throws {
        let byType =
            MediaType.allCases.flatMap { type in
                [AssetQuery.all, AssetQuery.all.trash(.only), AssetQuery.all.includingHidden()].map {
                    $0.filter(.mediaType(type))
                }
            } + [SmartAlbum.videos, .livePhotos].map { $0.query(now: clock.time, options: LibraryOptions()) }
        do {
            let library = try openLibrary()
            var ids: [String] = []
            for index in 0..<6 {
                ids.append(
                    try library.add(jpeg: TestJPEG.make(seed: index), metadata: testMetadata(camera: "a")).id)
            }
            // A clip's row as the clip store writes it: its media type set on its row.
            func setType(_ type: MediaType, _ id: String) throws {
                _ = try library.write { db, tracker in
                    try tracker.willChange(db, assets: [id])
                    try db.execute(
                        sql: "UPDATE asset SET media_type = ? WHERE id = ?", arguments: [type.rawValue, id])
                }
            }
            try setType(.video, ids[0])
            try setType(.video, ids[1])
            try setType(.live, ids[2])
            try library.delete([ids[1]])
            try assertCountsAgree(library, byType, "setting media types and a deletion")
            XCTAssertEqual(try library.count(library.query(for: .videos)), 1)
            XCTAssertEqual(try library.count(library.query(for: .livePhotos)), 1)
            XCTAssertEqual(try library.count(AssetQuery.all.filter(.mediaType(.photo))), 3)
            try setType(.photo, ids[2])
            try assertCountsAgree(library, byType, "a media type changed back")
        }
        // A library from before v10: the tally as v6 made it, without the media type.
        let queue = try DatabaseQueue(path: dir.join("library.sqlite"))
        try queue.write { db in
            try db.execute(
                sql: """
                    DROP TRIGGER asset_tally_insert; DROP TRIGGER asset_tally_delete;
                    DROP TRIGGER asset_tally_update; DROP TABLE asset_tally;
                    """ + AssetTally.creationSQL)
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v10-tally-by-media-type'")
            XCTAssertFalse(try db.columns(in: "asset_tally").contains { $0.name == "media" })
        }
        try queue.close()
        try assertCountsAgree(try openLibrary(), byType, "the migration")
    }

    func testOtherFiltersCountTheRows() throws {
        let library = try openLibrary()
        let first = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata(camera: ""))
        clock.advance(seconds: 600)
        _ = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata(camera: nil))
        // Not tally keys: an empty camera name, dates, identifiers.
        for query in [
            AssetQuery.all.filter(.camera("")), AssetQuery.all.filter(.addedSince(clock.time)),
            AssetQuery.all.filter(.ids([first.id])),
        ] {
            XCTAssertNil(AssetTally.count(query))
        }
        XCTAssertEqual(try library.count(AssetQuery.all.filter(.camera(""))), 1)
        XCTAssertEqual(try library.count(AssetQuery.all.filter(.addedSince(clock.time))), 1)
        XCTAssertEqual(try cameraAlbums(library), [], "no camera has a name")
    }
}
