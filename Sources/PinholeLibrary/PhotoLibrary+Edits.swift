// Saving, reopening and reverting non-destructive edits; the rendered version of a photo.

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import GRDB
import PinholeCore
import SystemPackage

extension PhotoLibrary {
    /// The saved edit of a photo (to reopen it in an editor), or nil when it has none.
    public func edit(of id: String) throws -> AssetEdit? {
        try read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT asset_id, revision, format_identifier, format_version, data, render_path,
                           render_width, render_height, updated_ns, updated_offset
                    FROM edit WHERE asset_id = ?
                    """, arguments: [id]
            ).map { row in
                AssetEdit(
                    assetID: row[0], revision: row[1],
                    adjustment: AdjustmentData(
                        formatIdentifier: row[2], formatVersion: row[3],
                        data: [UInt8](row[4] as Data? ?? Data())),
                    renderPath: row[5], renderSize: PixelSize(width: row[6], height: row[7]),
                    updated: WallTime(epochNanoseconds: row[8], utcOffsetSeconds: row[9]))
            }
        }
    }

    /// Saves an edit of a photo: its recipe and the rendered, upright JPEG. The render is
    /// written durably before the index changes; the original is never touched. Saving again
    /// replaces the edit with a new revision. Returns the saved edit.
    @discardableResult
    public func saveEdit(of id: String, adjustment: AdjustmentData, renderedJPEG: [UInt8]) throws -> AssetEdit
    {
        guard let asset = try asset(id: id) else { throw LibraryError.assetNotFound(id: id) }
        let size: JPEGProbe.Info
        switch JPEGProbe.inspect(renderedJPEG) {
        case let .success(info): size = info
        case let .failure(failure):
            throw LibraryError.invalidImage(path: "rendered edit of \(id)", reason: failure.reason)
        }
        let revision = asset.editRevision + 1
        let relative = LibraryLayout.renderPath(id: id, revision: revision)
        let absolute = layout.absolute(relative)
        do {
            try writeInDirectory(renderedJPEG, to: absolute, replace: true)
        } catch {
            throw mapped(error)
        }
        let time = now()
        let edit = AssetEdit(
            assetID: id, revision: revision, adjustment: adjustment, renderPath: relative,
            renderSize: PixelSize(width: size.width, height: size.height), updated: time)
        let previous: String?
        let delivery: [(UInt64, ChangeDetails)]
        do {
            (previous, delivery) = try write { db, tracker in
                let current = try Int.fetchOne(
                    db, sql: "SELECT edit_revision FROM asset WHERE id = ?", arguments: [id])
                guard current == asset.editRevision else {
                    throw LibraryError.invalidRequest(
                        "photo \(id) was edited or deleted meanwhile; reopen the edit and try again")
                }
                try tracker.willChange(db, assets: [id])
                let old = try String.fetchOne(
                    db, sql: "SELECT render_path FROM edit WHERE asset_id = ?", arguments: [id])
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO edit (asset_id, revision, format_identifier, format_version, data,
                            render_path, render_width, render_height, updated_ns, updated_offset)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, revision, adjustment.formatIdentifier, adjustment.formatVersion,
                        Data(adjustment.data), relative, size.width, size.height, time.epochNanoseconds,
                        time.utcOffsetSeconds,
                    ])
                try db.execute(
                    sql:
                        "UPDATE asset SET edit_revision = ?, modified_ns = ?, modified_offset = ? WHERE id = ?",
                    arguments: [revision, time.epochNanoseconds, time.utcOffsetSeconds, id])
                return old
            }
        } catch {
            removeStaleRender(relative, of: id)
            throw error
        }
        if let previous, previous != relative { removeStaleRender(previous, of: id) }
        removeCachedThumbnails(of: id)
        deliver(delivery)
        return edit
    }

    /// Reverts a photo to its original: the edit and its render are removed.
    public func revertEdit(of id: String) throws {
        guard let current = try edit(of: id) else {
            if try asset(id: id) == nil { throw LibraryError.assetNotFound(id: id) }
            throw LibraryError.notEdited(id: id)
        }
        let time = now()
        let (_, delivery) = try write { db, tracker in
            try tracker.willChange(db, assets: [id])
            try db.execute(sql: "DELETE FROM edit WHERE asset_id = ?", arguments: [id])
            try db.execute(
                sql: "UPDATE asset SET edit_revision = 0, modified_ns = ?, modified_offset = ? WHERE id = ?",
                arguments: [time.epochNanoseconds, time.utcOffsetSeconds, id])
        }
        removeStaleRender(current.renderPath, of: id)
        POSIXFiles.removeEmptyDirectory(layout.renders + "/" + id)
        removeCachedThumbnails(of: id)
        deliver(delivery)
    }

    /// Absolute path of what the photo looks like now: its rendered edit, else its original.
    public func currentFilePath(of asset: Asset) throws -> FilePath {
        FilePath(try currentAbsolutePath(of: asset))
    }

    /// `currentFilePath(of:)` as the library's own file layer takes it.
    func currentAbsolutePath(of asset: Asset) throws -> String {
        if asset.isEdited, let edit = try edit(of: asset.id) { return layout.absolute(edit.renderPath) }
        return layout.absolute(asset.path)
    }

    /// The bytes of a photo's original.
    public func originalData(of asset: Asset) throws -> [UInt8] {
        do {
            return try POSIXFiles.read(layout.absolute(asset.path))
        } catch {
            throw mapped(error)
        }
    }

    /// Drops the cached thumbnails of a photo (after an edit changes how it looks); one that
    /// cannot be removed is reported: it could be shown again for a later edit of the same
    /// revision number, until `library thumbnails --clear` (or the file is removable again).
    func removeCachedThumbnails(of id: String) {
        let directory = layout.thumbnails + "/" + id
        guard let entries = try? POSIXFiles.list(directory) else { return }
        for entry in entries where !entry.isDirectory {
            cleaning(
                "remove the cached thumbnail \(directory)/\(entry.name) of the edited photo \(id)",
                consequence: "it may show the photo's earlier look; clear the thumbnail cache"
            ) { try POSIXFiles.remove(directory + "/" + entry.name) }
        }
        POSIXFiles.removeEmptyDirectory(directory)
    }

    /// Removes a render no edit uses any more; one that cannot be removed is reported (the
    /// next open's recovery removes stale renders).
    func removeStaleRender(_ relative: String, of id: String) {
        cleaning(
            "remove the render \(relative) of photo \(id), no longer used",
            consequence: "the next open's recovery removes it"
        ) { try POSIXFiles.remove(layout.absolute(relative)) }
    }
}
