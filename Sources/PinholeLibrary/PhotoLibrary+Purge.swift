// Permanent deletion from Recently Deleted: on demand, or when the retention period expires.

import GRDB
import PinholeCore

extension PhotoLibrary {
    /// Permanently deletes photos that are in Recently Deleted: their originals, renders and
    /// index entries. Photos not in Recently Deleted make the whole call fail
    /// (`LibraryError.notInRecentlyDeleted`) and nothing is deleted.
    ///
    /// Crash safety: originals are first moved to `.purging/`, then the index is committed,
    /// then the files are removed; the recovery pass finishes or undoes an interrupted purge.
    public func purge(_ ids: [String]) throws {
        let unique = Array(Set(ids)).sorted()
        guard !unique.isEmpty else { return }
        let records = try read { db in
            try unique.map { id -> Asset in
                guard let asset = try Asset.fetchOne(db, key: id) else {
                    throw LibraryError.assetNotFound(id: id)
                }
                guard asset.isDeleted else { throw LibraryError.notInRecentlyDeleted(id: id) }
                return asset
            }
        }
        var moved: [(from: String, to: String)] = []
        do {
            for asset in records {
                let from = layout.absolute(asset.path)
                let to = layout.purging + "/" + asset.id + (asset.path.hasSuffix(".mp4") ? ".mp4" : ".jpg")
                // A Live Photo's motion clip goes first: a cut after it leaves the still in
                // place, and recovery brings the clip back beside it.
                if let motion = motionAbsolutePath(of: asset), POSIXFiles.exists(motion) {
                    let target = layout.purging + "/" + asset.id + LibraryLayout.motionSuffix
                    try POSIXFiles.moveDurably(motion, to: target)
                    moved.append((motion, target))
                }
                guard POSIXFiles.exists(from) else { continue }
                try POSIXFiles.moveDurably(from, to: to)
                moved.append((from, to))
            }
        } catch {
            putBack(moved)
            throw mapped(error)
        }
        let delivery: [(UInt64, ChangeDetails)]
        do {
            (_, delivery) = try write { db, tracker in
                try tracker.willChange(db, assets: unique)
                for id in unique { try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id]) }
            }
        } catch {
            putBack(moved)
            throw error
        }
        // Not synced: after a power cut a file left in .purging/ without its index row is
        // removed by the next open's recovery pass (it only frees space, it saves nothing).
        for move in moved {
            cleaning("remove the purged \(move.to)", consequence: "the next open's recovery removes it") {
                try POSIXFiles.remove(move.to)
            }
        }
        for asset in records {
            removeDerivedFiles(of: asset.id)
            POSIXFiles.removeEmptyDirectory(POSIXFiles.parentDirectory(of: layout.absolute(asset.path)))
        }
        deliver(delivery)
    }

    /// Permanently deletes every photo in Recently Deleted ("empty the trash"); returns their identifiers.
    @discardableResult
    public func emptyRecentlyDeleted() throws -> [String] {
        let ids = try assetIDs(AssetQuery.all.trash(.only).includingHidden())
        try purge(ids)
        return ids
    }

    /// Permanently deletes the photos that have been in Recently Deleted longer than
    /// `options.trashRetentionDays`; returns their identifiers. Runs at every open.
    @discardableResult
    public func purgeExpired() throws -> [String] {
        let cutoff = now().adding(.seconds(-86_400 * options.trashRetentionDays)).epochNanoseconds
        let ids = try read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM asset WHERE deleted_ns IS NOT NULL AND deleted_ns <= ? ORDER BY id",
                arguments: [cutoff])
        }
        try purge(ids)
        return ids
    }

    /// A purge that failed: its originals go back from `.purging/` to where their rows say;
    /// one that cannot is reported (its row is still there, so the next open's recovery
    /// moves it back: the photo is not lost).
    private func putBack(_ moved: [(from: String, to: String)]) {
        for move in moved.reversed() {
            cleaning(
                "move \(move.to) back to \(move.from) after the purge failed",
                consequence: "its photo is still listed, and the next open's recovery moves it back"
            ) { try POSIXFiles.moveDurably(move.to, to: move.from) }
        }
    }

    /// Removes renders and cached thumbnails of an asset (derived files); one that cannot be
    /// removed is reported (it only takes space).
    func removeDerivedFiles(of id: String) {
        for directory in [layout.renders + "/" + id, layout.thumbnails + "/" + id] {
            guard let entries = try? POSIXFiles.list(directory) else { continue }
            for entry in entries where !entry.isDirectory {
                cleaning(
                    "remove \(directory)/\(entry.name) of the purged photo \(id)",
                    consequence: "it only takes space"
                ) {
                    try POSIXFiles.remove(directory + "/" + entry.name)
                }
            }
            POSIXFiles.removeEmptyDirectory(directory)
        }
    }
}

extension PhotoLibrary {
    /// Periodic upkeep for a long-running process (the appliance calls it, e.g. hourly):
    /// purges expired deletions and checkpoints the WAL so it does not grow without bound.
    /// Returns the identifiers purged.
    @discardableResult
    public func maintain() throws -> [String] {
        let purged = try purgeExpired()
        do {
            try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
        } catch {
            throw mapped(error)
        }
        return purged
    }
}
