// Opening the library's SQLite database (WAL, full sync, migrations) and setting a damaged one aside.

import CSQLiteSyncs
import GRDB
import PinholeCore
import SystemPackage

/// Opening and damage handling of the index database.
enum LibraryDatabase {
    /// Opens (or creates) the database in WAL mode with `synchronous = FULL`, so that a
    /// committed add survives power loss, and migrates it.
    ///
    /// Throws `LibraryError.schemaTooNew` for a database from a newer Pinhole, and the
    /// original `DatabaseError` when the file is damaged (see `isDamaged`).
    static func open(_ layout: LibraryLayout) throws -> DatabasePool {
        // SQLite's own sync calls are counted with Pinhole's (SyncCount), through a VFS that
        // forwards to the default one; registered once, before the first connection opens.
        let counting = pinhole_sqlite_count_syncs()
        guard counting == 0 else {
            throw LibraryError.database(
                reason: "could not register the sync-counting SQLite VFS (\(counting))")
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            db.add(function: GeoDistance.databaseFunction)
        }
        let pool = try DatabasePool(path: layout.database, configuration: configuration)
        // GRDB switches the writer to `synchronous = NORMAL` after `prepareDatabase` when it
        // enables WAL, and NORMAL does not sync the WAL at commit: a power cut then lost
        // answered album changes, edits and deletions (found by `make powercut`). Set FULL
        // again on the writer, the one connection that commits.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let migrator = LibrarySchema.migrator
        // Touch the schema first so a damaged file fails here, before any migration.
        _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        try LibrarySchema.renameShippedIdentifiers(pool)
        if try pool.read({ db in try migrator.hasBeenSuperseded(db) }) {
            throw LibraryError.schemaTooNew(path: FilePath(layout.database))
        }
        try migrator.migrate(pool)
        // Every asset a write changes is recorded, to check it was announced (ChangeTracker).
        try pool.writeWithoutTransaction { db in try ChangeRecording.install(db) }
        return pool
    }

    /// Whether `error` means the file is not a usable database (rather than, say, full or locked).
    static func isDamaged(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Moves the database and its WAL files into `quarantine/`; returns the new relative name.
    static func moveAside(_ layout: LibraryLayout, stamp: WallTime) throws -> String {
        let name = "quarantine/library-\(stamp.secondsSince1970).sqlite"
        do {
            for suffix in ["", "-wal", "-shm"] where POSIXFiles.exists(layout.database + suffix) {
                try POSIXFiles.moveDurably(layout.database + suffix, to: layout.absolute(name + suffix))
            }
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
        return name
    }
}
