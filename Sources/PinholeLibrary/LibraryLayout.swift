// Where the library keeps its database, originals, renders, caches and quarantined files.

import PinholeCore

/// The directory layout of a library. All paths are absolute.
///
/// ```
/// DIR/library.sqlite            index (WAL mode)
/// DIR/.lock                     flock: shared while open, exclusive while repairing
/// DIR/originals/YYYY/MM/DD/ID.jpg   originals, never modified once written
/// DIR/renders/ID/rN.jpg         rendered edits (revision N)
/// DIR/cache/thumbnails/…        thumbnail and preview cache (disposable)
/// DIR/quarantine/…              files the recovery pass could not adopt
/// DIR/.purging/ID.jpg           originals being permanently deleted
/// ```
struct LibraryLayout: Sendable {
    /// The library directory.
    let root: String

    /// Creates the layout of the library at `root` (made absolute).
    init(root: String) { self.root = POSIXFiles.absolute(root) }

    var database: String { root + "/library.sqlite" }
    /// Held shared by every process with the library open; exclusively during recovery.
    var lockFile: String { root + "/.lock" }
    var originals: String { root + "/originals" }
    var renders: String { root + "/renders" }
    var thumbnails: String { root + "/cache/thumbnails" }
    var quarantine: String { root + "/quarantine" }
    var purging: String { root + "/.purging" }

    /// Absolute form of a library-relative path.
    func absolute(_ relative: String) -> String { root + "/" + relative }

    /// Relative path of the original of asset `id` created at `created` (local date).
    static func originalPath(id: String, created: WallTime) -> String {
        let date = created.local
        let year = String(date.year)
        return "originals/\(year)/\(twoDigits(date.month))/\(twoDigits(date.day))/\(id).jpg"
    }

    /// Relative path of the clip `id` recorded at `created` (local date), beside the photos.
    static func clipPath(id: String, created: WallTime) -> String {
        String(originalPath(id: id, created: created).dropLast(4)) + ".mp4"
    }

    /// Relative path of revision `revision` of the rendered edit of asset `id`.
    static func renderPath(id: String, revision: Int) -> String {
        "renders/\(id)/r\(revision).jpg"
    }

    /// The directories every library has.
    var requiredDirectories: [String] { [root, originals, renders, thumbnails, quarantine, purging] }
}
