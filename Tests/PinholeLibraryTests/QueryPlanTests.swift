// SQLite's query plans for the library's queries: each walks an index in order, none scans or sorts.

import GRDB
import PinholeCore
import XCTest

@_spi(Benchmarks) @testable import PinholeLibrary

final class QueryPlanTests: LibraryTestCase {
    override class var opensLibrary: Bool { true }

    /// The `EXPLAIN QUERY PLAN` lines of the SELECTs the library runs for `query`: the one of
    /// `assets(_:)` (limited to 100) and the one of `page(_:after:pageSize:)`, as `make bench`
    /// times them; both must have the same plan.
    private func plan(_ query: AssetQuery, after cursor: AssetCursor? = nil) throws -> [String] {
        let statements = [
            try library.selectStatement(for: query.after(cursor).limit(100)),
            try library.pageStatement(for: query, after: cursor, pageSize: 100),
        ]
        let plans = try statements.map { statement in
            try library.read { db in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments
                )
                .map { $0["detail"] as String }
            }
        }
        XCTAssertEqual(plans[0], plans[1], "assets and page plan alike")
        return plans[0]
    }

    /// Checks that the plan searches `index` and neither scans the photos nor sorts them.
    private func assertPlan(
        _ query: AssetQuery, after cursor: AssetCursor? = nil, uses index: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let lines = try plan(query, after: cursor)
        let text = lines.joined(separator: " | ")
        XCTAssertTrue(lines.contains { $0.contains("INDEX \(index) ") }, text, file: file, line: line)
        XCTAssertFalse(lines.contains { $0.hasPrefix("SCAN") }, text, file: file, line: line)
        XCTAssertFalse(lines.contains { $0.contains("TEMP B-TREE") }, text, file: file, line: line)
    }

    func testSmartAlbumsAndPagesUseTheirIndexes() throws {
        try assertEveryPlan(album: "some-album")
    }

    /// At scale the library has run ANALYZE (`refreshStatistics`, from 1,000 photos on), and
    /// SQLite's planner weighs its statistics: the plans must hold with them too. 3,000 photos
    /// like the benchmark's: 1% favorites, an album of 300, a few edited, hidden, deleted.
    func testPlansHoldWithThePlannersStatisticsAtScale() throws {
        let start = WallTime(secondsSince1970: 1_700_000_000)
        let assets = (0..<3000).map { index in
            let hex = String(index, radix: 16)
            let id = "01900000-0000-7000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
            return Asset(
                id: id, path: "originals/2023/11/14/\(id).jpg", created: start.adding(.seconds(300 * index)),
                added: start, modified: start, cameraID: index % 2 == 0 ? "cam0" : "cam1", make: nil,
                model: nil, pixelWidth: 64, pixelHeight: 48, orientation: .up, exposureTime: nil, iso: nil,
                fNumber: nil, focalLength: nil, lensPosition: nil, flashFired: nil, gps: nil, fileSize: 1600,
                checksum: "crc32:00000000", favorite: index % 100 == 0, hidden: index % 500 == 1,
                deleted: index % 700 == 2 ? start : nil, editRevision: index % 250 == 3 ? 1 : 0)
        }
        try library.insertRows(assets)
        let album = try library.performChanges { batch in
            let album = batch.createAlbum(title: "Bench")
            batch.addAssets(assets.suffix(300).map(\.id), to: album)
        }.createdAlbumIDs[0]
        _ = try library.write { db, _ in try db.execute(sql: "ANALYZE") }
        let statistics = try library.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_stat1")
        }
        XCTAssertGreaterThan(statistics ?? 0, 0, "ANALYZE recorded statistics")
        try assertEveryPlan(album: album)
        let middle = try library.cursor(after: assets[1500].id, in: .all)
        XCTAssertTrue(
            try plan(.all, after: middle).contains {
                $0.hasPrefix("SEARCH asset USING") && $0.hasSuffix(">?)")
            })
    }

    /// Every smart album's query and an album's walk their own index (see `assertPlan`).
    private func assertEveryPlan(album: String) throws {
        try assertPlan(.all, uses: "asset_by_created")
        try assertPlan(AssetQuery.all.sorted(by: .created, ascending: false), uses: "asset_by_created")
        try assertPlan(library.query(for: .favorites), uses: "asset_favorites_visible")
        try assertPlan(library.query(for: .edited), uses: "asset_edited_visible")
        try assertPlan(library.query(for: .hidden), uses: "asset_by_created")
        try assertPlan(library.query(for: .camera("cam0")), uses: "asset_by_camera_visible")
        try assertPlan(library.query(for: .recentlyDeleted), uses: "asset_deleted")
        try assertPlan(library.query(for: .recentlyAdded), uses: "asset_by_added_visible")
        try assertPlan(library.albumQuery(album), uses: "album_asset_by_position")
    }

    func testKeysetPagesStartWithAnIndexRange() throws {
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        for query in [
            AssetQuery.all, AssetQuery.all.sorted(by: .created, ascending: false),
            library.query(for: .favorites), library.query(for: .recentlyDeleted),
        ] {
            let cursor = try library.cursor(after: asset.id, in: query)
            let lines = try plan(query, after: cursor)
            XCTAssertTrue(
                lines.contains {
                    $0.hasPrefix("SEARCH asset USING") && ($0.hasSuffix(">?)") || $0.hasSuffix("<?)"))
                },
                "the cursor bounds the index range: \(lines)")
            XCTAssertFalse(lines.contains { $0.contains("TEMP B-TREE") }, "\(lines)")
        }
        let album = try library.performChanges { batch in
            let album = batch.createAlbum(title: "A")
            batch.addAssets([asset.id], to: album)
        }.createdAlbumIDs[0]
        let query = library.albumQuery(album)
        let lines = try plan(query, after: try library.cursor(after: asset.id, in: query))
        XCTAssertTrue(lines.contains { $0.contains("album_asset_by_position (album_id=? AND ") }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains("TEMP B-TREE") }, "\(lines)")
    }

    func testSmartAlbumCountsReadTheTally() throws {
        for smart in [SmartAlbum.allPhotos, .favorites, .edited, .hidden, .recentlyDeleted, .camera("cam0")] {
            let (sql, arguments) = try XCTUnwrap(AssetTally.count(library.query(for: smart)), "\(smart)")
            let lines = try library.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map {
                    $0["detail"] as String
                }
            }
            XCTAssertTrue(lines.allSatisfy { $0.contains("asset_tally") }, "\(smart): \(lines)")
            XCTAssertFalse(lines.contains { $0.contains(" asset ") }, "\(smart): \(lines)")
        }
    }
}
