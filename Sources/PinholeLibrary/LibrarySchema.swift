// The library database schema: append-only migrations, never wiped.

import GRDB

/// Database migrations. Add new migrations at the end, named `vN-what-it-does` with the next
/// N; never edit or remove a shipped one.
enum LibrarySchema {
    /// The migrator that brings any older library database up to date.
    static var migrator: DatabaseMigrator { makeMigrator { $0 } }

    /// Identifiers migrations shipped with before they had one style, and theirs now.
    /// `renameShippedIdentifiers` rewrites them in a library's `grdb_migrations` on open.
    static let renamedIdentifiers: [(shipped: String, now: String)] = [
        ("v1", "v1-initial"),
        ("location-and-clock-trust", "v5-location-and-clock-trust"),
        ("v5-maintained-counts", "v6-maintained-counts"),
        ("photo-timing", "v7-photo-timing"),
        ("export-journal", "v8-export-journal"),
    ]

    /// Gives the migrations a library recorded under their shipped identifiers their names of
    /// today, so that the migrator knows them (a library made before the renaming opens as
    /// before). Writes only when there is something to rename.
    static func renameShippedIdentifiers(_ pool: DatabasePool) throws {
        let shipped = renamedIdentifiers.map(\.shipped)
        let found = try pool.read { db -> Bool in
            guard try db.tableExists("grdb_migrations") else { return false }
            let marks = shipped.map { _ in "?" }.joined(separator: ", ")
            return try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier IN (\(marks)))",
                arguments: StatementArguments(shipped)) ?? false
        }
        guard found else { return }
        try pool.write { db in
            for (old, new) in renamedIdentifiers {
                try db.execute(
                    sql: "UPDATE grdb_migrations SET identifier = ? WHERE identifier = ?",
                    arguments: [new, old])
            }
        }
    }

    /// The migrations, each registered under `identifier(itsName)` (the tests make libraries
    /// of every earlier schema with the shipped identifiers).
    static func makeMigrator(identifier: (String) -> String) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Never `eraseDatabaseOnSchemaChange`: a camera must not lose its photo index.
        migrator.registerMigration(identifier("v1-initial")) { db in
            try db.execute(
                sql: """
                    CREATE TABLE asset (
                        id TEXT PRIMARY KEY NOT NULL,
                        path TEXT NOT NULL UNIQUE,
                        created_ns INTEGER NOT NULL,
                        created_offset INTEGER NOT NULL,
                        added_ns INTEGER NOT NULL,
                        added_offset INTEGER NOT NULL,
                        modified_ns INTEGER NOT NULL,
                        modified_offset INTEGER NOT NULL,
                        camera_id TEXT,
                        make TEXT,
                        model TEXT,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        orientation INTEGER NOT NULL,
                        exposure_time REAL,
                        iso INTEGER,
                        f_number REAL,
                        focal_length REAL,
                        lens_position REAL,
                        flash_fired INTEGER,
                        latitude REAL,
                        longitude REAL,
                        altitude REAL,
                        file_size INTEGER NOT NULL,
                        checksum TEXT NOT NULL,
                        favorite INTEGER NOT NULL DEFAULT 0,
                        hidden INTEGER NOT NULL DEFAULT 0,
                        deleted_ns INTEGER,
                        deleted_offset INTEGER,
                        edit_revision INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX asset_by_created ON asset(hidden, deleted_ns, created_ns);
                    CREATE INDEX asset_by_camera ON asset(camera_id, created_ns);
                    CREATE INDEX asset_by_added ON asset(added_ns);
                    CREATE INDEX asset_favorites ON asset(created_ns) WHERE favorite = 1;
                    CREATE INDEX asset_deleted ON asset(deleted_ns) WHERE deleted_ns IS NOT NULL;
                    CREATE INDEX asset_edited ON asset(created_ns) WHERE edit_revision > 0;
                    CREATE INDEX asset_by_checksum ON asset(checksum);

                    CREATE TABLE folder (
                        id TEXT PRIMARY KEY NOT NULL,
                        title TEXT NOT NULL,
                        parent_id TEXT REFERENCES folder(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        created_ns INTEGER NOT NULL
                    );
                    CREATE INDEX folder_by_parent ON folder(parent_id, position);

                    CREATE TABLE album (
                        id TEXT PRIMARY KEY NOT NULL,
                        title TEXT NOT NULL,
                        folder_id TEXT REFERENCES folder(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        created_ns INTEGER NOT NULL
                    );
                    CREATE INDEX album_by_folder ON album(folder_id, position);

                    CREATE TABLE album_asset (
                        album_id TEXT NOT NULL REFERENCES album(id) ON DELETE CASCADE,
                        asset_id TEXT NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (album_id, asset_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX album_asset_by_asset ON album_asset(asset_id);
                    CREATE INDEX album_asset_by_position ON album_asset(album_id, position);

                    CREATE TABLE edit (
                        asset_id TEXT PRIMARY KEY NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                        revision INTEGER NOT NULL,
                        format_identifier TEXT NOT NULL,
                        format_version TEXT NOT NULL,
                        data BLOB NOT NULL,
                        render_path TEXT NOT NULL,
                        render_width INTEGER NOT NULL,
                        render_height INTEGER NOT NULL,
                        updated_ns INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration(identifier("v2-time-offsets")) { db in
            // v1 (already on main) kept album, folder and edit times without their UTC offset.
            try db.execute(
                sql: """
                    ALTER TABLE edit ADD COLUMN updated_offset INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE album ADD COLUMN created_offset INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE folder ADD COLUMN created_offset INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration(identifier("v3-verified-directories")) { db in
            // Lets the open-time recovery pass skip directories unchanged since last verified.
            try db.execute(
                sql: """
                    CREATE TABLE verified_directory (
                        path TEXT PRIMARY KEY NOT NULL,
                        mtime_ns INTEGER NOT NULL,
                        has_subdirectories INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE library_state (
                        key TEXT PRIMARY KEY NOT NULL,
                        value INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration(identifier("v4-smart-album-indexes")) { db in
            // Partial indexes led by the columns every default query constrains (hidden,
            // deleted), so SQLite's planner prefers them to scanning all photos in date order.
            try db.execute(
                sql: """
                    DROP INDEX asset_favorites;
                    DROP INDEX asset_edited;
                    DROP INDEX asset_by_camera;
                    CREATE INDEX asset_favorites_visible ON asset(hidden, deleted_ns, created_ns) WHERE favorite = 1;
                    CREATE INDEX asset_edited_visible ON asset(hidden, deleted_ns, created_ns) WHERE edit_revision > 0;
                    CREATE INDEX asset_by_camera_visible ON asset(camera_id, hidden, deleted_ns, created_ns);
                    """)
        }
        migrator.registerMigration(identifier("v5-location-and-clock-trust")) { db in
            // Clock trust per photo (synchronized, gps, unsynchronized, unknown; NULL for
            // photos from before it was recorded), the correction `library redate` applied to
            // created_ns (the original's EXIF date is created_ns - date_shift_ns), and a partial
            // index for location queries, led like the others by hidden and deleted_ns so the
            // planner prefers it to walking every visible photo in date order.
            try db.execute(
                sql: """
                    ALTER TABLE asset ADD COLUMN clock_trust TEXT;
                    ALTER TABLE asset ADD COLUMN date_shift_ns INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX asset_by_location ON asset(hidden, deleted_ns, latitude, longitude) WHERE latitude IS NOT NULL;
                    """)
        }
        migrator.registerMigration(identifier("v6-maintained-counts")) { db in
            // Smart album counts read from a tally the triggers keep, instead of counting
            // 100,000 rows for every status line (see AssetTally).
            try db.execute(sql: AssetTally.creationSQL)
            // Recently Added walks its range in order (led by hidden and deleted like the
            // others; added_ns alone made SQLite sort every visible photo).
            try db.execute(
                sql: """
                    DROP INDEX asset_by_added;
                    CREATE INDEX asset_by_added_visible ON asset(hidden, deleted_ns, added_ns);
                    """)
        }
        migrator.registerMigration(identifier("v7-photo-timing")) { db in
            // The photo's timing record: from the shutter press to the start of its exposure
            // (negative: already under way at the press) and, for a press that woke the camera
            // from standby, the time to its first usable frame. NULL: not recorded.
            try db.execute(
                sql: """
                    ALTER TABLE asset ADD COLUMN exposure_lag_ns INTEGER;
                    ALTER TABLE asset ADD COLUMN wake_cost_ns INTEGER;
                    """)
        }
        migrator.registerMigration(identifier("v8-export-journal")) { db in
            // Exports in flight: written before the first file goes to the target, removed once
            // every file is durably there; a row found by the recovery pass is an interrupted
            // export, reported until it is redone or forgotten (see PhotoLibrary+ExportJournal).
            try db.execute(
                sql: """
                    CREATE TABLE export_job (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        directory TEXT NOT NULL,
                        version TEXT NOT NULL,
                        asset_ids TEXT NOT NULL,
                        started_ns INTEGER NOT NULL,
                        started_offset INTEGER NOT NULL,
                        interrupted INTEGER NOT NULL DEFAULT 0
                    );
                    """)
        }
        migrator.registerMigration(identifier("v9-clips")) { db in
            // Clips beside photos: the media type (photo, video, live), and for a clip its
            // duration, frame rate, codec and where its trigger falls inside it; an index for
            // `library list --type` and the Videos smart album, led like the others.
            try db.execute(
                sql: """
                    ALTER TABLE asset ADD COLUMN media_type TEXT NOT NULL DEFAULT 'photo';
                    ALTER TABLE asset ADD COLUMN duration_us INTEGER;
                    ALTER TABLE asset ADD COLUMN frame_rate REAL;
                    ALTER TABLE asset ADD COLUMN codec TEXT;
                    ALTER TABLE asset ADD COLUMN trigger_us INTEGER;
                    CREATE INDEX asset_by_media_type ON asset(media_type, hidden, deleted_ns, created_ns);
                    """)
        }
        migrator.registerMigration(identifier("v10-tally-by-media-type")) { db in
            // Counts by media type (the Videos and Live Photos albums) from the maintained
            // tally: at a million photos, counting the index took tens of milliseconds.
            try db.execute(sql: AssetTally.mediaTypeSQL)
        }
        migrator.registerMigration(identifier("v11-album-counts")) { db in
            // Album counts from a maintained tally: at a million photos, counting the members of
            // an album of 10,000 took tens of milliseconds on every album list.
            try db.execute(sql: AlbumTally.creationSQL)
        }
        return migrator
    }
}
