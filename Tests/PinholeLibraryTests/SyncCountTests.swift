// The sync calls each kind of change costs, pinned through the POSIX layer's counters (SyncCount).

import PinholeCore
import PinholeImaging
import PinholeSystem
import XCTest

@testable import PinholeLibrary

/// A photo is durable with three sync calls: its file's data, its name in the day's directory,
/// and the commit of its index entry (SQLite's write-ahead log at synchronous = FULL). Each
/// test warms the path first (the day's directory, the log's creation), then counts one change.
final class SyncCountTests: LibraryTestCase {
    override class var opensLibrary: Bool { true }

    private func whole(_ jpeg: [UInt8]) -> (any ByteSink) throws -> Void {
        { sink in try jpeg.withUnsafeBytes { try sink.write($0) } }
    }

    func testACaptureCostsItsFileItsDirectoryAndOneCommit() throws {
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

    func testACaptureWrittenUnsyncedSyncsNothingUntilItsAddThenTheSameThree() throws {
        let jpeg = TestJPEG.make(width: 320, height: 240, seed: 15)
        _ = try library.add(try library.writeOriginal(metadata: testMetadata(), producing: whole(jpeg)))
        clock.advance(seconds: 1)
        let (written, atWrite) = try SyncCount.counting {
            try library.writeOriginal(metadata: testMetadata(), synced: false, producing: whole(jpeg))
        }
        XCTAssertEqual(atWrite.total, 0, "the encoder's thread syncs nothing: \(atWrite)")
        let (_, atAdd) = try SyncCount.counting { try library.add(written) }
        XCTAssertEqual(atAdd, SyncCount(counts: [.file: 1, .directory: 1, .sqliteLog: 1]), "\(atAdd)")
    }

    func testAnAddOfBytesCostsTheSame() throws {
        let jpeg = TestJPEG.make(width: 320, height: 240, seed: 6)
        _ = try library.add(jpeg: jpeg, metadata: testMetadata())
        clock.advance(seconds: 1)
        let (_, syncs) = try SyncCount.counting { try library.add(jpeg: jpeg, metadata: testMetadata()) }
        XCTAssertEqual(syncs, SyncCount(counts: [.file: 1, .directory: 1, .sqliteLog: 1]), "\(syncs)")
    }

    func testTheFirstPhotoOfADayAlsoSyncsItsNewDirectoryInTheMonth() throws {
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

    /// A recovery pass that finds the library as the last pass left it writes nothing: no
    /// commit, no sync (it rewrote the same row watermark at every open, one commit each).
    /// (Opening a pool whose log file is missing or empty still commits once: GRDB writes
    /// into a new log so that readers can open it.)
    func testARecoveryPassThatFindsNothingToRepairSyncsNothing() throws {
        _ = try library.add(jpeg: TestJPEG.make(seed: 17), metadata: testMetadata())
        var report = RecoveryReport()
        try library.recover(into: &report)
        let (_, syncs) = try SyncCount.counting {
            var again = RecoveryReport()
            try library.recover(into: &again)
        }
        XCTAssertEqual(try library.count(.all), 1)
        XCTAssertEqual(syncs, SyncCount(), "\(syncs)")
    }

    func testADeletionIsOneCommit() throws {
        let a = try library.add(jpeg: TestJPEG.make(seed: 8), metadata: testMetadata())
        let b = try library.add(jpeg: TestJPEG.make(seed: 9), metadata: testMetadata())
        try library.delete([a.id])
        let (_, syncs) = try SyncCount.counting { try library.delete([b.id]) }
        XCTAssertEqual(syncs, SyncCount(counts: [.sqliteLog: 1]), "\(syncs)")
    }

    /// A purge moves the original to `.purging/` durably (both directories), commits, then
    /// removes the file without a sync: recovery removes a leftover whose row is gone.
    func testAPurgeIsTheMoveInBothDirectoriesAndOneCommit() throws {
        let a = try library.add(jpeg: TestJPEG.make(seed: 15), metadata: testMetadata())
        let b = try library.add(jpeg: TestJPEG.make(seed: 16), metadata: testMetadata())
        try library.delete([a.id, b.id])
        try library.purge([a.id])
        let (_, syncs) = try SyncCount.counting { try library.purge([b.id]) }
        XCTAssertEqual(syncs, SyncCount(counts: [.directory: 2, .sqliteLog: 1]), "\(syncs)")
    }

    func testAnEditCostsItsRenderItsDirectoryAndOneCommit() throws {
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
