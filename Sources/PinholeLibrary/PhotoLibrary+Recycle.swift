// The storage policy's "recycle": make room for new photos by removing the oldest unprotected ones.

import GRDB
import PinholeCore

/// One photo, clip or Live Photo removed to make room.
public struct RecycledPhoto: Sendable, Hashable {
    /// Its identifier.
    public var id: String
    /// When it was taken.
    public var created: WallTime
    /// The bytes its files held (a Live Photo's still and motion clip together).
    public var bytes: Int64
    /// Photo, video or Live Photo.
    public var mediaType: MediaType = .photo
    /// Whether it was already in Recently Deleted (only purged) rather than recycled.
    public var wasDeleted: Bool
}

extension PhotoLibrary {
    /// Frees space until `target` bytes are free on the library's file system: first purges
    /// what is already in Recently Deleted (longest there first), then moves the oldest photos
    /// that are neither favourites nor in any album to Recently Deleted and purges them, one at
    /// a time. Clips and Live Photos are taken like photos, by the same rule (a long clip frees
    /// much at once). Stops when enough is free or nothing more may go. Deleting works within the
    /// reserve kept free for it, so this succeeds on a full card. `removed` is called for each
    /// photo as soon as it is gone (for the log).
    @discardableResult
    public func recycle(untilFree target: Int64, removed: (RecycledPhoto) -> Void = { _ in }) throws
        -> [RecycledPhoto]
    {
        var done: [RecycledPhoto] = []
        while let free = freeBytes(), free < target {
            guard let next = try nextToRecycle() else { break }
            if !next.wasDeleted { try delete([next.id]) }
            try purge([next.id])
            done.append(next)
            removed(next)
        }
        return done
    }

    private func nextToRecycle() throws -> RecycledPhoto? {
        try read { db in
            let trashed = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, created_ns, created_offset, file_size, media_type, path FROM asset
                    WHERE deleted_ns IS NOT NULL ORDER BY deleted_ns, created_ns LIMIT 1
                    """)
            let row =
                try trashed
                ?? Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, created_ns, created_offset, file_size, media_type, path FROM asset
                        WHERE deleted_ns IS NULL AND favorite = 0
                        AND NOT EXISTS (SELECT 1 FROM album_asset WHERE album_asset.asset_id = asset.id)
                        ORDER BY created_ns, id LIMIT 1
                        """)
            guard let row else { return nil }
            let nanoseconds: Int64 = row[1]
            let offset: Int32 = row[2]
            let created = WallTime(
                secondsSince1970: nanoseconds / 1_000_000_000,
                nanoseconds: Int32(nanoseconds % 1_000_000_000),
                utcOffsetSeconds: offset)
            let type = MediaType(rawValue: row[4]) ?? .photo
            var bytes: Int64 = row[3]
            if type == .live {
                bytes += POSIXFiles.fileSize(layout.absolute(LibraryLayout.motionPath(ofStill: row[5]))) ?? 0
            }
            return RecycledPhoto(
                id: row[0], created: created, bytes: bytes, mediaType: type, wasDeleted: trashed != nil)
        }
    }
}
