// Album counts the database maintains on every change, so the album list reads one row per album.

/// The `album_tally` table (schema migration `v11-album-counts`): the number of photos in each
/// album that are not deleted, kept up to date by triggers on `album`, `album_asset` and
/// `asset`, so that listing the albums with their counts reads one row per album instead of
/// looking up every member (tens of milliseconds for an album of 10,000 in a library of a
/// million).
enum AlbumTally {
    /// The table, its triggers, and its first filling.
    ///
    /// A purge deletes the asset row, whose album memberships go by `ON DELETE CASCADE` after
    /// it: the asset's own trigger counts it out (when it was not in the trash), and the
    /// membership's trigger then finds no asset left to count.
    static let creationSQL = """
        CREATE TABLE album_tally (
            album_id TEXT PRIMARY KEY NOT NULL,
            n INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO album_tally (album_id, n)
            SELECT album.id, COUNT(asset.id) FROM album
            LEFT JOIN album_asset ON album_asset.album_id = album.id
            LEFT JOIN asset ON asset.id = album_asset.asset_id AND asset.deleted_ns IS NULL
            GROUP BY album.id;
        CREATE TRIGGER album_tally_album_insert AFTER INSERT ON album BEGIN
            INSERT INTO album_tally (album_id, n) VALUES (NEW.id, 0);
        END;
        CREATE TRIGGER album_tally_album_delete AFTER DELETE ON album BEGIN
            DELETE FROM album_tally WHERE album_id = OLD.id;
        END;
        CREATE TRIGGER album_tally_member_insert AFTER INSERT ON album_asset BEGIN
            UPDATE album_tally
                SET n = n + (SELECT COUNT(*) FROM asset WHERE id = NEW.asset_id AND deleted_ns IS NULL)
                WHERE album_id = NEW.album_id;
        END;
        CREATE TRIGGER album_tally_member_delete AFTER DELETE ON album_asset BEGIN
            UPDATE album_tally
                SET n = n - (SELECT COUNT(*) FROM asset WHERE id = OLD.asset_id AND deleted_ns IS NULL)
                WHERE album_id = OLD.album_id;
        END;
        CREATE TRIGGER album_tally_trash AFTER UPDATE OF deleted_ns ON asset
            WHEN (OLD.deleted_ns IS NULL) IS NOT (NEW.deleted_ns IS NULL)
        BEGIN
            UPDATE album_tally SET n = n + (CASE WHEN NEW.deleted_ns IS NULL THEN 1 ELSE -1 END)
                WHERE album_id IN (SELECT album_id FROM album_asset WHERE asset_id = NEW.id);
        END;
        CREATE TRIGGER album_tally_purge BEFORE DELETE ON asset WHEN OLD.deleted_ns IS NULL BEGIN
            UPDATE album_tally SET n = n - 1
                WHERE album_id IN (SELECT album_id FROM album_asset WHERE asset_id = OLD.id);
        END;
        """

    /// The album columns and the maintained count, for `PhotoLibrary.albums()` and its kin.
    static let albumSQL = """
        SELECT album.id, album.title, album.folder_id, album.position, album.created_ns, ifnull(album_tally.n, 0),
               album.created_offset
        FROM album LEFT JOIN album_tally ON album_tally.album_id = album.id
        """
}
