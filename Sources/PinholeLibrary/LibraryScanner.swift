// Walks the library's directories and classifies what is on disk, for recovery and fsck.

/// What is on disk, classified by name (the files are not read).
struct DiskScan {
    /// Partial temporary files (`.NAME.tmp`), library-relative.
    var tempFiles: [String] = []
    /// Originals named `<id>.jpg`: identifier → library-relative path.
    var originals: [String: String] = [:]
    /// Other files under `originals/`, library-relative.
    var foreignFiles: [String] = []
    /// Files under `.purging/` named `<id>.jpg`: identifier → library-relative path.
    var purging: [String: String] = [:]
    /// Rendered edits: asset identifier → library-relative paths of its renders.
    var renders: [String: [String]] = [:]
    /// Number of files under `quarantine/`.
    var quarantined = 0
}

/// Classifies the files of a library.
enum LibraryScanner {
    /// Walks `originals/`, `renders/`, `.purging/`, the thumbnail cache (temp files only)
    /// and counts `quarantine/`.
    static func scan(_ layout: LibraryLayout) throws -> DiskScan {
        var scan = DiskScan()
        try walk(layout.root, "originals") { relative, name in
            if isTemp(name) {
                scan.tempFiles.append(relative)
            } else if let id = identifier(ofOriginal: name) {
                if scan.originals[id] != nil { scan.foreignFiles.append(relative) } else { scan.originals[id] = relative }
            } else {
                scan.foreignFiles.append(relative)
            }
        }
        try walk(layout.root, "renders") { relative, name in
            if isTemp(name) { scan.tempFiles.append(relative); return }
            let parts = relative.split(separator: "/")
            if parts.count == 3 { scan.renders[String(parts[1]), default: []].append(relative) }
        }
        try walk(layout.root, ".purging") { relative, name in
            if isTemp(name) {
                scan.tempFiles.append(relative)
            } else if let id = identifier(ofOriginal: name) {
                scan.purging[id] = relative
            }
        }
        try walk(layout.root, "cache/thumbnails") { relative, name in
            if isTemp(name) { scan.tempFiles.append(relative) }
        }
        try walk(layout.root, "quarantine") { _, _ in scan.quarantined += 1 }
        scan.tempFiles.sort()
        scan.foreignFiles.sort()
        return scan
    }

    /// Whether `name` is a temporary name used by durable writes.
    static func isTemp(_ name: String) -> Bool { name.hasPrefix(".") && name.hasSuffix(".tmp") }

    /// The identifier in an original's file name `<id>.jpg`, or nil.
    static func identifier(ofOriginal name: String) -> String? {
        guard name.hasSuffix(".jpg") else { return nil }
        let id = String(name.dropLast(4))
        return Identifier.isValid(id) ? id : nil
    }

    /// Calls `visit(relativePath, fileName)` for every file under `root/relative` (recursively).
    private static func walk(_ root: String, _ relative: String, _ visit: (String, String) -> Void) throws {
        let absolute = root + "/" + relative
        guard POSIXFiles.isDirectory(absolute) else { return }
        for entry in try POSIXFiles.list(absolute) {
            let child = relative + "/" + entry.name
            if entry.isDirectory {
                try walk(root, child, visit)
            } else {
                visit(child, entry.name)
            }
        }
    }
}
