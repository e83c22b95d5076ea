// Reading albums, folders and smart albums.

import GRDB
import PinholeCore

extension PhotoLibrary {
    /// Every user album with its photo count, ordered by folder then position.
    public func albums() throws -> [Album] {
        try read { db in
            try Row.fetchAll(
                db, sql: AlbumTally.albumSQL + " ORDER BY album.folder_id, album.position"
            )
            .map(Self.album(row:))
        }
    }

    /// The albums directly in a folder (nil: the top level), in order.
    public func albums(in folderID: String?) throws -> [Album] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: AlbumTally.albumSQL + " WHERE album.folder_id IS ? ORDER BY album.position",
                arguments: [folderID]
            ).map(Self.album(row:))
        }
    }

    /// The album with this identifier, or nil.
    public func album(id: String) throws -> Album? {
        try read { db in
            try Row.fetchOne(
                db, sql: AlbumTally.albumSQL + " WHERE album.id = ?", arguments: [id]
            ).map(Self.album(row:))
        }
    }

    /// Every folder, ordered by parent then position.
    public func folders() throws -> [AlbumFolder] {
        try read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT id, title, parent_id, position, created_ns, created_offset FROM folder ORDER BY parent_id, position"
            )
            .map { row in
                AlbumFolder(
                    id: row[0], title: row[1], parentID: row[2], position: row[3],
                    created: WallTime(epochNanoseconds: row[4], utcOffsetSeconds: row[5]))
            }
        }
    }

    /// The smart albums: All Photos, Recently Added, Favorites, Videos, Live Photos, one per
    /// camera that took a photo, Edited, Hidden, Recently Deleted.
    public func smartAlbums() throws -> [SmartAlbum] {
        let cameras = try read { db in try String.fetchAll(db, sql: AssetTally.camerasSQL) }
        return [.allPhotos, .recentlyAdded, .favorites, .videos, .livePhotos] + cameras.map(SmartAlbum.camera)
            + [
                .edited, .hidden, .recentlyDeleted,
            ]
    }

    /// The query of a smart album now.
    public func query(for smartAlbum: SmartAlbum) -> AssetQuery {
        smartAlbum.query(now: now(), options: options)
    }

    /// The photos of a user album in album order (not deleted; hidden excluded).
    public func albumQuery(_ albumID: String) -> AssetQuery {
        AssetQuery.all.filter(.album(albumID)).sorted(by: .albumOrder)
    }

    private static func album(row: Row) -> Album {
        Album(
            id: row[0], title: row[1], folderID: row[2], position: row[3],
            created: WallTime(epochNanoseconds: row[4], utcOffsetSeconds: row[6]), count: row[5])
    }
}
