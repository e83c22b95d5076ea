// Keyset paging: walking pages by cursor visits the whole result once, in order, in every sort order.

import PinholeCore
import XCTest

@testable import PinholeLibrary

final class KeysetPagingTests: LibraryTestCase {
    override class var opensLibrary: Bool { true }
    private var ids: [String] = []
    private var album = ""

    /// 13 photos: several taken at the same instant (ties), two sizes of file, three deleted
    /// at two instants, one hidden, the last seven in an album.
    override func setUpWithError() throws {
        try super.setUpWithError()
        ids = []
        for index in 0..<13 {
            let taken = WallTime(secondsSince1970: 1_790_000_000 + Int64(index / 3) * 60)
            let jpeg = TestJPEG.make(width: index % 2 == 0 ? 64 : 32, height: 48)
            ids.append(try library.add(jpeg: jpeg, metadata: testMetadata(taken: taken)).id)
            clock.advance(seconds: 1)
        }
        try library.delete([ids[1], ids[4]])
        clock.advance(seconds: 5)
        try library.delete([ids[7]])
        _ = try library.performChanges { $0.setHidden([ids[10]], true) }
        album = try library.performChanges { batch in
            let created = batch.createAlbum(title: "Trip")
            batch.addAssets(Array(ids[6...].reversed()), to: created)
        }.createdAlbumIDs[0]
    }

    /// Walks `query` page by page and checks the pages against the unpaged result.
    private func assertPagesWalk(
        _ query: AssetQuery, size: Int, file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let whole = try library.assetIDs(query)
        XCTAssertFalse(whole.isEmpty, file: file, line: line)
        var walked: [String] = []
        var cursor: AssetCursor?
        var pages = 0
        repeat {
            let page = try library.page(query, after: cursor, pageSize: size)
            XCTAssertEqual(page.totalCount, whole.count, file: file, line: line)
            XCTAssertLessThanOrEqual(page.assets.count, size, file: file, line: line)
            XCTAssertEqual(page.offset, cursor == nil ? 0 : nil, file: file, line: line)
            walked += page.assets.map(\.id)
            XCTAssertEqual(page.hasMore, walked.count < whole.count, file: file, line: line)
            // The same page through the query itself.
            XCTAssertEqual(
                try library.assetIDs(query.after(cursor).limit(size)), page.assets.map(\.id), file: file,
                line: line)
            cursor = page.next
            pages += 1
        } while cursor != nil && pages <= whole.count
        XCTAssertEqual(walked, whole, "\(query.sort)", file: file, line: line)
    }

    func testEverySortOrderWalksOnceInOrder() throws {
        for size in [1, 2, 5] {
            try assertPagesWalk(.all, size: size)
            try assertPagesWalk(AssetQuery.all.sorted(by: .created, ascending: false), size: size)
            try assertPagesWalk(AssetQuery.all.sorted(by: .fileSize), size: size)
            try assertPagesWalk(
                AssetQuery.all.sorted(by: .added, ascending: false).includingHidden(), size: size)
            try assertPagesWalk(library.query(for: .recentlyDeleted), size: size)
            try assertPagesWalk(library.albumQuery(album), size: size)
            // Mixed directions, and a key that is NULL for some photos (deleted time with the trash included).
            var mixed = AssetQuery.all.trash(.included)
            mixed.sort = [AssetSort(.fileSize, ascending: false), AssetSort(.created)]
            try assertPagesWalk(mixed, size: size)
            try assertPagesWalk(AssetQuery.all.trash(.included).sorted(by: .deleted), size: size)
            try assertPagesWalk(
                AssetQuery.all.trash(.included).sorted(by: .deleted, ascending: false), size: size)
        }
        XCTAssertEqual(
            try library.assetIDs(library.albumQuery(album)), [ids[12], ids[11], ids[9], ids[8], ids[6]])
    }

    func testACursorOutlivesChangesAroundIt() throws {
        let query = AssetQuery.all
        let first = try library.page(query, after: nil, pageSize: 3)
        XCTAssertEqual(first.assets.map(\.id), [ids[0], ids[2], ids[3]])
        // The last photo shown is deleted, an earlier one too, and a photo is taken before them.
        try library.delete([ids[3], ids[0]])
        _ = try library.add(
            jpeg: TestJPEG.make(seed: 9),
            metadata: testMetadata(taken: WallTime(secondsSince1970: 1_700_000_000)))
        let second = try library.page(query, after: first.next, pageSize: 3)
        XCTAssertEqual(second.assets.map(\.id), [ids[5], ids[6], ids[8]])
        // The cursor of a shown photo, as the command line's `--after ID` makes it.
        let resumed = try library.cursor(after: ids[3], in: query)
        XCTAssertEqual(try library.assetIDs(query.after(resumed).limit(3)), [ids[5], ids[6], ids[8]])
    }

    func testOffsetPagesStillWorkAndCarryACursor() throws {
        let page = try library.page(.all, offset: 2, pageSize: 3)
        XCTAssertEqual(page.assets.map(\.id), [ids[3], ids[5], ids[6]])
        XCTAssertEqual(page.offset, 2)
        XCTAssertEqual(page.totalCount, 9)
        XCTAssertEqual(
            try library.page(.all, after: page.next, pageSize: 2).assets.map(\.id), [ids[8], ids[9]])
        let last = try library.page(.all, offset: 6, pageSize: 3)
        XCTAssertEqual(last.assets.map(\.id), [ids[9], ids[11], ids[12]])
        XCTAssertFalse(last.hasMore, "a page ending exactly at the end has no next page")
    }

    func testBadCursorsAreRefusedWithoutChangingAnything() throws {
        let created = try library.page(.all, after: nil, pageSize: 2)
        let bySize = AssetQuery.all.sorted(by: .fileSize)
        XCTAssertThrowsError(try library.assets(bySize.after(created.next))) { error in
            guard case LibraryError.invalidRequest(let message) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(message.contains("another sort order"), message)
        }
        XCTAssertThrowsError(try library.page(bySize, after: created.next, pageSize: 2))
        XCTAssertThrowsError(try library.cursor(after: "01900000-0000-7000-8000-00000000ffff", in: .all)) {
            XCTAssertEqual($0 as? LibraryError, .assetNotFound(id: "01900000-0000-7000-8000-00000000ffff"))
        }
        XCTAssertThrowsError(
            try library.cursor(after: ids[0], in: library.albumQuery(album)), "not in the album")
        XCTAssertEqual(try library.count(.all), 9)
    }
}
