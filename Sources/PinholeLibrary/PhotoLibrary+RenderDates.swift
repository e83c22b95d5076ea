// Rendered edits carry the index's (corrected) date: stamped when rendered and again when a photo is redated.

import GRDB
import PinholeCore

extension PhotoLibrary {
    /// `rendered` (an edit of `asset`) with the EXIF dates an export of it carries: the
    /// corrected date for a redated photo, else unchanged.
    static func stampedRender(of asset: Asset, _ rendered: [UInt8]) -> [UInt8] {
        exportBytes(of: asset, rendered, isOriginal: false)
    }

    /// Rewrites the stored renders of the edited photos among `ids` with their corrected EXIF
    /// dates (after a redate; originals are never touched). Each render is replaced durably;
    /// one that cannot be rewritten keeps its old date, and exports correct it anyway.
    func restampRenders(of ids: [String]) {
        let wanted = Set(ids)
        guard
            let renders = try? read({ db in
                try Row.fetchAll(db, sql: "SELECT asset_id, render_path FROM edit").compactMap {
                    row -> (String, String)? in
                    let id: String = row[0]
                    return wanted.contains(id) ? (id, row[1]) : nil
                }
            })
        else { return }
        for (id, relative) in renders {
            guard let asset = try? asset(id: id) else { continue }
            let path = layout.absolute(relative)
            guard let bytes = try? POSIXFiles.read(path) else { continue }
            let stamped = Self.stampedRender(of: asset, bytes)
            if stamped != bytes {
                cleaning(
                    "write the new dates into the render \(relative) of photo \(id)",
                    consequence: "the render keeps its old dates in EXIF until the photo is redated again"
                ) { try writeInDirectory(stamped, to: path, replace: true) }
            }
        }
    }
}
