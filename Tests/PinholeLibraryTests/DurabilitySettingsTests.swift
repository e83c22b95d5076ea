// The index database commits durably: the writer connection syncs the WAL at every commit.

import GRDB
import XCTest

@testable import PinholeLibrary

final class DurabilitySettingsTests: LibraryTestCase {
    /// `make powercut` found answered album changes and edits lost after a power cut: GRDB's
    /// pool set the writer to `synchronous = NORMAL` (1), which does not sync the WAL at
    /// commit. Every commit must go through a writer at FULL (2).
    func testTheWriterSyncsTheWALAtEveryCommit() throws {
        let library = try openLibrary()
        let level = try library.pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        XCTAssertEqual(level, 2, "the writer's synchronous level (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA)")
        let mode = try library.pool.writeWithoutTransaction { db in
            try String.fetchOne(db, sql: "PRAGMA journal_mode")
        }
        XCTAssertEqual(mode, "wal")
    }

    /// A library reopened after another process created it gets the same durable writer.
    func testReopenedLibraryKeepsFullSync() throws {
        _ = try openLibrary()
        let reopened = try openLibrary()
        let level = try reopened.pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        XCTAssertEqual(level, 2)
    }
}
