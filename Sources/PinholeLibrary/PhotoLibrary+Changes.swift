// Applying change batches atomically, and convenience wrappers for single changes.

import GRDB
import PinholeCore

extension PhotoLibrary {
    /// Records changes with `body` and applies them atomically: all of them, or (when `body`
    /// or any change throws) none. New photos of the batch are written durably before the
    /// commit and removed again if it fails (a recorded clip's stays, `ChangeBatch.adoptKeeping`). Observers are notified after the commit.
    ///
    /// ```swift
    /// let result = try library.performChanges { batch in
    ///     let album = batch.createAlbum(title: "Trip")
    ///     let photo = batch.createAsset(jpeg: bytes, metadata: metadata)
    ///     batch.addAssets([photo], to: album)
    /// }
    /// ```
    public func performChanges(_ body: (inout ChangeBatch) throws -> Void) throws -> ChangeResult {
        var batch = ChangeBatch(time: now())
        try body(&batch)
        let requests = batch.requests

        // New originals first, durably; the transaction below indexes them.
        var written: [String: Asset] = [:]
        do {
            for case let .adoptAsset(asset) in requests { written[asset.id] = asset }
            for case let .createAsset(id, jpeg, metadata) in requests {
                written[id] = try writeOriginal(jpeg: jpeg, metadata: metadata, id: id)
            }
        } catch {
            written.values.filter { !batch.keptOnFailure.contains($0.id) }.forEach(discardOriginal)
            throw error
        }

        var result = ChangeResult(
            createdIDs: batch.createdIDs, createdAssetIDs: [], createdAlbumIDs: [],
            createdFolderIDs: [], touchedAssetIDs: [])
        let delivery: [(UInt64, ChangeDetails)]
        do {
            (result.touchedAssetIDs, delivery) = try write { db, tracker in
                var applier = BatchApplier(db: db, tracker: tracker, time: batch.time)
                for request in requests {
                    try applier.apply(request, written: written)
                }
                return applier.touched
            }
        } catch {
            written.values.filter { !batch.keptOnFailure.contains($0.id) }.forEach(discardOriginal)
            throw error
        }
        for request in requests {
            switch request {
            case let .createAsset(id, _, _): result.createdAssetIDs.append(id)
            case let .adoptAsset(asset): result.createdAssetIDs.append(asset.id)
            case let .createAlbum(id, _, _): result.createdAlbumIDs.append(id)
            case let .createFolder(id, _, _): result.createdFolderIDs.append(id)
            default: break
            }
        }
        for case let .redate(ids, _) in requests { restampRenders(of: ids) }
        deliver(delivery)
        return result
    }

    /// Marks or unmarks photos as favorite (one batch).
    public func setFavorite(_ ids: [String], _ favorite: Bool) throws {
        _ = try performChanges { $0.setFavorite(ids, favorite) }
    }

    /// Moves photos to Recently Deleted (one batch).
    public func delete(_ ids: [String]) throws {
        _ = try performChanges { $0.delete(ids) }
    }

    /// Brings photos back from Recently Deleted (one batch).
    public func restore(_ ids: [String]) throws {
        _ = try performChanges { $0.restore(ids) }
    }
}

/// Applies the requests of one batch inside its transaction, validating as it goes.
struct BatchApplier {
    let db: Database
    let tracker: ChangeTracker
    let time: WallTime
    private(set) var touched: [String] = []
    private var touchedSet: Set<String> = []

    init(db: Database, tracker: ChangeTracker, time: WallTime) {
        self.db = db
        self.tracker = tracker
        self.time = time
    }

    mutating func apply(_ request: ChangeBatch.Request, written: [String: Asset]) throws {
        switch request {
        case let .redate(ids, shift):
            let nanoseconds = shift.nanoseconds
            try update(
                ids, set: "created_ns = created_ns + ?, date_shift_ns = date_shift_ns + ?", nanoseconds,
                nanoseconds)
        case let .createAsset(id, _, _):
            guard let asset = written[id] else { return }
            try touch([id])
            try asset.insert(db)
        case let .adoptAsset(asset):
            try touch([asset.id])
            try asset.insert(db)
        case let .createAlbum(id, title, folderID):
            try requireFolder(folderID)
            try db.execute(
                sql:
                    "INSERT INTO album (id, title, folder_id, position, created_ns, created_offset) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    id, try validTitle(title), folderID, try nextPosition(in: folderID),
                    time.epochNanoseconds, time.utcOffsetSeconds,
                ])
            tracker.collectionsChanged([id])
        case let .createFolder(id, title, parentID):
            try requireFolder(parentID)
            try db.execute(
                sql:
                    "INSERT INTO folder (id, title, parent_id, position, created_ns, created_offset) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    id, try validTitle(title), parentID, try nextPosition(in: parentID),
                    time.epochNanoseconds, time.utcOffsetSeconds,
                ])
            tracker.collectionsChanged([id])
        case let .renameAlbum(id, title):
            try requireAlbum(id)
            try db.execute(
                sql: "UPDATE album SET title = ? WHERE id = ?", arguments: [try validTitle(title), id])
            tracker.collectionsChanged([id])
        case let .renameFolder(id, title):
            try requireFolder(id)
            try db.execute(
                sql: "UPDATE folder SET title = ? WHERE id = ?", arguments: [try validTitle(title), id])
            tracker.collectionsChanged([id])
        case let .deleteAlbum(id):
            try requireAlbum(id)
            try touch(
                try String.fetchAll(
                    db, sql: "SELECT asset_id FROM album_asset WHERE album_id = ?", arguments: [id]))
            try db.execute(sql: "DELETE FROM album WHERE id = ?", arguments: [id])
            tracker.collectionsChanged([id])
        case let .deleteFolder(id):
            try requireFolder(id)
            let (folders, albums) = try contents(ofFolder: id)
            try touch(
                try String.fetchAll(
                    db,
                    sql: "SELECT DISTINCT asset_id FROM album_asset WHERE album_id IN ("
                        + albums.map { _ in "?" }.joined(separator: ",") + ")",
                    arguments: StatementArguments(albums)))
            try db.execute(sql: "DELETE FROM folder WHERE id = ?", arguments: [id])
            tracker.collectionsChanged(folders + albums)
        case let .moveAlbum(id, folderID):
            try requireAlbum(id)
            try requireFolder(folderID)
            try db.execute(
                sql: "UPDATE album SET folder_id = ?, position = ? WHERE id = ?",
                arguments: [folderID, try nextPosition(in: folderID), id])
            tracker.collectionsChanged([id])
        case let .addAssets(ids, albumID):
            try requireAlbum(albumID)
            try requireAssets(ids)
            try touch(ids)
            var position =
                try Int.fetchOne(
                    db, sql: "SELECT COALESCE(MAX(position), -1) FROM album_asset WHERE album_id = ?",
                    arguments: [albumID]) ?? -1
            for id in ids {
                position += 1
                try db.execute(
                    sql: "INSERT OR IGNORE INTO album_asset (album_id, asset_id, position) VALUES (?, ?, ?)",
                    arguments: [albumID, id, position])
            }
            tracker.collectionsChanged([albumID])
        case let .removeAssets(ids, albumID):
            try requireAlbum(albumID)
            try touch(ids)
            for id in ids {
                try db.execute(
                    sql: "DELETE FROM album_asset WHERE album_id = ? AND asset_id = ?",
                    arguments: [albumID, id])
            }
            tracker.collectionsChanged([albumID])
        case let .moveAssets(ids, albumID, index):
            try requireAlbum(albumID)
            try reorder(ids, in: albumID, to: index)
            tracker.collectionsChanged([albumID])
        case let .setFavorite(ids, value):
            try update(ids, set: "favorite = ?", value)
        case let .setHidden(ids, value):
            try update(ids, set: "hidden = ?", value)
        case let .delete(ids):
            try requireAssets(ids)
            let live = try String.fetchAll(
                db,
                sql: "SELECT id FROM asset WHERE deleted_ns IS NULL AND id IN ("
                    + ids.map { _ in "?" }.joined(separator: ",") + ")", arguments: StatementArguments(ids))
            try update(
                live, set: "deleted_ns = ?, deleted_offset = ?", time.epochNanoseconds, time.utcOffsetSeconds)
        case let .restore(ids):
            try requireAssets(ids)
            let deleted = try String.fetchAll(
                db,
                sql: "SELECT id FROM asset WHERE deleted_ns IS NOT NULL AND id IN ("
                    + ids.map { _ in "?" }.joined(separator: ",") + ")", arguments: StatementArguments(ids))
            try update(deleted, set: "deleted_ns = NULL, deleted_offset = NULL")
        }
    }

    // MARK: Helpers

    /// Declares assets as touched (before changing them) for the result and the observers.
    private mutating func touch(_ ids: [String]) throws {
        let fresh = ids.filter { touchedSet.insert($0).inserted }
        touched += fresh
        try tracker.willChange(db, assets: fresh)
    }

    /// `UPDATE asset SET <assignments>, modified = now WHERE id = ?` for each id.
    private mutating func update(
        _ ids: [String], set assignments: String, _ values: (any DatabaseValueConvertible)?...
    ) throws {
        guard !ids.isEmpty else { return }
        try requireAssets(ids)
        try touch(ids)
        let sql = "UPDATE asset SET \(assignments), modified_ns = ?, modified_offset = ? WHERE id = ?"
        for id in ids {
            try db.execute(
                sql: sql,
                arguments: StatementArguments(values + [time.epochNanoseconds, time.utcOffsetSeconds, id]))
        }
    }

    private func validTitle(_ title: String) throws -> String {
        let trimmed = String(
            title.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.isEmpty else {
            throw LibraryError.invalidRequest("an album or folder title cannot be empty")
        }
        return trimmed
    }

    private func requireAlbum(_ id: String) throws {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM album WHERE id = ?", arguments: [id]) != nil else {
            throw LibraryError.albumNotFound(id: id)
        }
    }

    private func requireFolder(_ id: String?) throws {
        guard let id else { return }
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM folder WHERE id = ?", arguments: [id]) != nil else {
            throw LibraryError.folderNotFound(id: id)
        }
    }

    private func requireAssets(_ ids: [String]) throws {
        for id in ids
        where try Bool.fetchOne(db, sql: "SELECT 1 FROM asset WHERE id = ?", arguments: [id]) == nil {
            throw LibraryError.assetNotFound(id: id)
        }
    }

    /// The next position at the end of a folder (albums and folders share the order).
    private func nextPosition(in folderID: String?) throws -> Int {
        let albums =
            try Int.fetchOne(
                db, sql: "SELECT COALESCE(MAX(position), -1) FROM album WHERE folder_id IS ?",
                arguments: [folderID]) ?? -1
        let folders =
            try Int.fetchOne(
                db, sql: "SELECT COALESCE(MAX(position), -1) FROM folder WHERE parent_id IS ?",
                arguments: [folderID]) ?? -1
        return max(albums, folders) + 1
    }

    /// All folders (the folder itself included) and albums under a folder.
    private func contents(ofFolder id: String) throws -> (folders: [String], albums: [String]) {
        var folders = [id], albums: [String] = []
        var index = 0
        while index < folders.count {
            folders += try String.fetchAll(
                db, sql: "SELECT id FROM folder WHERE parent_id = ?", arguments: [folders[index]])
            albums += try String.fetchAll(
                db, sql: "SELECT id FROM album WHERE folder_id = ?", arguments: [folders[index]])
            index += 1
        }
        return (folders, albums)
    }

    /// Rewrites an album's positions with `ids` moved to `index`.
    private mutating func reorder(_ ids: [String], in albumID: String, to index: Int) throws {
        var order = try String.fetchAll(
            db, sql: "SELECT asset_id FROM album_asset WHERE album_id = ? ORDER BY position",
            arguments: [albumID])
        let moving = Set(ids)
        for id in ids where !order.contains(id) {
            throw LibraryError.invalidRequest(
                "photo \(id) is not in album \(albumID); add it before moving it")
        }
        order.removeAll { moving.contains($0) }
        order.insert(contentsOf: ids, at: max(0, min(index, order.count)))
        try touch(ids)
        for (position, id) in order.enumerated() {
            try db.execute(
                sql: "UPDATE album_asset SET position = ? WHERE album_id = ? AND asset_id = ?",
                arguments: [position, albumID, id])
        }
    }
}
