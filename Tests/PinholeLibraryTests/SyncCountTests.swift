// The sync calls each kind of change costs, pinned through the POSIX layer's counters (SyncCount).

import PinholeCore
import PinholeImaging
import PinholeSystem
import XCTest

@testable import PinholeLibrary

/// A photo is durable with three sync calls: its file's data, its name in the day's directory,
/// and the commit of its index entry (SQLite's write-ahead log at synchronous = FULL). Each
/// test warms the path first (the day's directory, the log's creation), then counts one change.
final class SyncCountTests: XCTestCase {
    private func whole(_ jpeg: [UInt8]) -> (any ByteSink) throws -> Void {
        { sink in try jpeg.withUnsafeBytes { try sink.write($0) } }
    }

    func testACaptureCostsItsFileItsDirectoryAndOneCommit() throws {
        let dir = TemporaryDirectory()
        let clock = ManualWallClock()
        let library = try PhotoLibrary.open(at: dir.path, now: clock.now)
        let jpeg = TestJPEG.make(width: 320, height: 240, seed: 5)
        _ = try library.add(try library.writeOriginal(metadata: testMetadata(), producing: whole(jpeg)))
        clock.advance(seconds: 1)
        let (_, syncs) = try SyncCount.counting {
            try library.add(try library.writeOriginal(metadata: testMetadata(), producing: whole(jpeg)))
        }
        XCTAssertEqual(syncs[.file], 1, "the file's data, once: \(syncs)")
        XCTAssertEqual(syncs[.directory], 1, "its name in the day's directory: \(syncs)")
        XCTAssertEqual(syncs[.sqliteLog], 1, "one commit: \(syncs)")
        XCTAssertEqual(syncs.total, 3, "\(syncs)")
    }

    func testAnAddOfBytesCostsTheSame() throws {
        let dir = TemporaryDirectory()
        let clock = ManualWallClock()
        let library = try PhotoLibrary.open(at: dir.path, now: clock.now)
        let jpeg = TestJPEG.make(width: 320, height: 240, seed: 6)
        _ = try library.add(jpeg: jpeg, metadata: testMetadata())
        clock.advance(seconds: 1)
        let (_, syncs) = try SyncCount.counting { try library.add(jpeg: jpeg, metadata: testMetadata()) }
        XCTAssertEqual(syncs, SyncCount(counts: [.file: 1, .directory: 1, .sqliteLog: 1]), "\(syncs)")
    }

    func testTheFirstPhotoOfADayAlsoSyncsItsNewDirectoryInTheMonth() throws {
        let dir = TemporaryDirectory()
        let clock = ManualWallClock()
        let library = try PhotoLibrary.open(at: dir.path, now: clock.now)
        let jpeg = TestJPEG.make(width: 320, height: 240, seed: 7)
        _ = try library.add(jpeg: jpeg, metadata: testMetadata())
        // The next day of the same month (the test clock starts mid-November).
        let nextDay = WallTime(secondsSince1970: clock.time.secondsSince1970 + 86_400, utcOffsetSeconds: 3600)
        let (_, syncs) = try SyncCount.counting {
            try library.add(jpeg: jpeg, metadata: testMetadata(taken: nextDay))
        }
        XCTAssertEqual(
            syncs[.directory], 2, "the day's directory in its month, then the photo's name: \(syncs)")
        XCTAssertEqual(syncs.total, 4, "\(syncs)")
    }

    func testADeletionIsOneCommit() throws {
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary.open(at: dir.path, now: ManualWallClock().now)
        let a = try library.add(jpeg: TestJPEG.make(seed: 8), metadata: testMetadata())
        let b = try library.add(jpeg: TestJPEG.make(seed: 9), metadata: testMetadata())
        try library.delete([a.id])
        let (_, syncs) = try SyncCount.counting { try library.delete([b.id]) }
        XCTAssertEqual(syncs, SyncCount(counts: [.sqliteLog: 1]), "\(syncs)")
    }

    /// A purge moves the original to `.purging/` durably (both directories), commits, then
    /// removes the file without a sync: recovery removes a leftover whose row is gone.
    func testAPurgeIsTheMoveInBothDirectoriesAndOneCommit() throws {
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary.open(at: dir.path, now: ManualWallClock().now)
        let a = try library.add(jpeg: TestJPEG.make(seed: 15), metadata: testMetadata())
        let b = try library.add(jpeg: TestJPEG.make(seed: 16), metadata: testMetadata())
        try library.delete([a.id, b.id])
        try library.purge([a.id])
        let (_, syncs) = try SyncCount.counting { try library.purge([b.id]) }
        XCTAssertEqual(syncs, SyncCount(counts: [.directory: 2, .sqliteLog: 1]), "\(syncs)")
    }

    func testAnEditCostsItsRenderItsDirectoryAndOneCommit() throws {
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary.open(at: dir.path, now: ManualWallClock().now)
        let a = try library.add(jpeg: TestJPEG.make(seed: 10), metadata: testMetadata())
        let b = try library.add(jpeg: TestJPEG.make(seed: 11), metadata: testMetadata())
        let adjustment = AdjustmentData(formatIdentifier: "test", formatVersion: "1", data: [1])
        try library.saveEdit(of: a.id, adjustment: adjustment, renderedJPEG: TestJPEG.make(seed: 12))
        let (_, again) = try SyncCount.counting {
            try library.saveEdit(of: a.id, adjustment: adjustment, renderedJPEG: TestJPEG.make(seed: 13))
        }
        XCTAssertEqual(again, SyncCount(counts: [.file: 1, .directory: 1, .sqliteLog: 1]), "\(again)")
        // A photo's first edit also makes its directory under renders/ (one more directory sync).
        let (_, first) = try SyncCount.counting {
            try library.saveEdit(of: b.id, adjustment: adjustment, renderedJPEG: TestJPEG.make(seed: 14))
        }
        XCTAssertEqual(first, SyncCount(counts: [.file: 1, .directory: 2, .sqliteLog: 1]), "\(first)")
    }
}
