// The safety net under ChangeTracker: SQLite itself records which assets a write changed.

import GRDB

/// Temporary triggers on the writer connection record every asset a transaction really
/// changes (a row of `asset` inserted, updated or deleted; an `album_asset` membership added,
/// removed or moved to another asset or album) in `temp.pinhole_changed_asset`.
/// `ChangeTracker.finish` compares them with the assets the write path announced with
/// `willChange`: a write path that forgets to announce cannot go unnoticed.
///
/// GRDB's own change tracking cannot do this here: SQLite's update hook, which
/// `TransactionObserver` is built on, is not called for `WITHOUT ROWID` tables such as
/// `album_asset`, and it gives row ids, not asset ids.
enum ChangeRecording {
    /// What happens to changes nobody announced.
    enum Policy: Sendable {
        /// The write fails and rolls back with `LibraryError.unannouncedChange` (debug builds
        /// and the tests: the write path is a bug to fix).
        case fail
        /// Every observer is told the assets changed (release builds: a shipped write is
        /// never refused, and no observer misses it).
        case reportAsChanged
    }

    /// Debug builds fail; release builds report.
    #if DEBUG
        static let defaultPolicy = Policy.fail
    #else
        static let defaultPolicy = Policy.reportAsChanged
    #endif

    /// Creates the table and triggers on the writer connection (after the migrations; the
    /// temp schema lives as long as the connection).
    static func install(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS pinhole_changed_asset (id TEXT NOT NULL);
                CREATE TEMP TRIGGER IF NOT EXISTS pinhole_asset_inserted AFTER INSERT ON main.asset
                    BEGIN INSERT INTO pinhole_changed_asset VALUES (NEW.id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS pinhole_asset_updated AFTER UPDATE ON main.asset
                    BEGIN INSERT INTO pinhole_changed_asset VALUES (OLD.id), (NEW.id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS pinhole_asset_deleted AFTER DELETE ON main.asset
                    BEGIN INSERT INTO pinhole_changed_asset VALUES (OLD.id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS pinhole_member_added AFTER INSERT ON main.album_asset
                    BEGIN INSERT INTO pinhole_changed_asset VALUES (NEW.asset_id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS pinhole_member_moved
                    AFTER UPDATE OF album_id, asset_id ON main.album_asset
                    BEGIN INSERT INTO pinhole_changed_asset VALUES (OLD.asset_id), (NEW.asset_id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS pinhole_member_removed AFTER DELETE ON main.album_asset
                    BEGIN INSERT INTO pinhole_changed_asset VALUES (OLD.asset_id); END;
                """)
    }

    /// The assets changed in this transaction so far, and forgets them (inside the transaction:
    /// a rollback brings nothing back that was not there).
    static func takeChanged(_ db: Database) throws -> Set<String> {
        let changed = try String.fetchSet(db, sql: "SELECT id FROM temp.pinhole_changed_asset")
        if !changed.isEmpty { try db.execute(sql: "DELETE FROM temp.pinhole_changed_asset") }
        return changed
    }
}
