// Walks the library's directories and classifies what is on disk, for recovery and fsck.

/// The state of a directory of originals when it was last found consistent with the index.
struct DirectoryState: Equatable {
    /// Modification time (nanoseconds since the epoch) read before listing it.
    var mtime: Int64
    /// Whether it has subdirectories (those are always listed).
    var hasSubdirectories: Bool
}

/// What is on disk, classified by name (the files are not read).
struct DiskScan {
    /// Partial temporary files (`.NAME.tmp`), library-relative.
    var tempFiles: [String] = []
    /// Originals named `<id>.jpg` in the listed directories: identifier → library-relative path.
    var originals: [String: String] = [:]
    /// Clips whose recording never ended (`.ID.mp4.recording`): identifier → library-relative path.
    var recordings: [String: String] = [:]
    /// Live Photos' motion clips (`ID.motion.mp4`): identifier → library-relative path.
    var motions: [String: String] = [:]
    /// Motion clips under `.purging/`: identifier → library-relative path.
    var purgingMotions: [String: String] = [:]
    /// Other files under `originals/`, library-relative.
    var foreignFiles: [String] = []
    /// Files under `.purging/` named `<id>.jpg`: identifier → library-relative path.
    var purging: [String: String] = [:]
    /// Rendered edits: asset identifier → library-relative paths of its renders.
    var renders: [String: [String]] = [:]
    /// Number of files under `quarantine/` (full scans only).
    var quarantined = 0
    /// Directories under `originals/` that were listed, with their state before listing.
    var listed: [String: DirectoryState] = [:]
    /// Directories under `originals/` skipped because they had not changed since verified.
    var unchanged: Set<String> = []
    /// Listed directories holding temporary or foreign files.
    var untidy: Set<String> = []

    /// Whether the directory `directory` was seen (listed or unchanged).
    func visited(_ directory: String) -> Bool { listed[directory] != nil || unchanged.contains(directory) }
}

/// Classifies the files of a library.
enum LibraryScanner {
    /// Walks `originals/`, `renders/` and `.purging/`; a full scan (for fsck) also counts
    /// `quarantine/`. Directories of originals whose state equals `verified` (same
    /// modification time, no subdirectories) are not listed: their entries cannot have
    /// changed, since adding, renaming or removing a file changes its directory's time.
    /// With `originals` false, `originals/` is left out (a caller that walks it directory by
    /// directory with `forEachOriginalsDirectory`).
    static func scan(
        _ layout: LibraryLayout, skipping verified: [String: DirectoryState] = [:],
        full: Bool = false, originals: Bool = true
    ) throws -> DiskScan {
        var scan = DiskScan()
        if originals { try walkOriginals(layout.root, "originals", verified: verified, into: &scan) }
        try walk(layout.root, "renders") { relative, name in
            if isTemp(name) { scan.tempFiles.append(relative); return }
            let parts = relative.split(separator: "/")
            if parts.count == 3 { scan.renders[String(parts[1]), default: []].append(relative) }
        }
        try walk(layout.root, ".purging") { relative, name in
            if isTemp(name) {
                scan.tempFiles.append(relative)
            } else if let id = identifier(ofMotion: name) {
                scan.purgingMotions[id] = relative
            } else if let id = identifier(ofOriginal: name) {
                scan.purging[id] = relative
            }
        }
        if full { try walk(layout.root, "quarantine") { _, _ in scan.quarantined += 1 } }
        scan.tempFiles.sort()
        scan.foreignFiles.sort()
        return scan
    }

    /// Whether `name` is a temporary name used by durable writes.
    static func isTemp(_ name: String) -> Bool { name.hasPrefix(".") && name.hasSuffix(".tmp") }

    /// The identifier in an original's file name `<id>.jpg`, or nil.
    static func identifier(ofOriginal name: String) -> String? {
        guard name.hasSuffix(".jpg") || name.hasSuffix(".mp4") else { return nil }
        let id = String(name.dropLast(4))
        return Identifier.isValid(id) ? id : nil
    }

    /// The identifier in a Live Photo's motion clip's file name `<id>.motion.mp4`, or nil.
    static func identifier(ofMotion name: String) -> String? {
        guard name.hasSuffix(LibraryLayout.motionSuffix) else { return nil }
        let id = String(name.dropLast(LibraryLayout.motionSuffix.count))
        return Identifier.isValid(id) ? id : nil
    }

    /// The identifier in a recording's file name `.<id>.mp4.recording`, or nil.
    static func identifier(ofRecording name: String) -> String? {
        let suffix = ".mp4" + LibraryClipFile.recordingSuffix
        guard name.hasPrefix("."), name.hasSuffix(suffix) else { return nil }
        let id = String(name.dropFirst().dropLast(suffix.count))
        return Identifier.isValid(id) ? id : nil
    }

    /// Lists `relative` under `originals/` unless verified and unchanged, then its subdirectories.
    private static func walkOriginals(
        _ root: String, _ relative: String, verified: [String: DirectoryState],
        into scan: inout DiskScan
    ) throws {
        let absolute = root + "/" + relative
        guard let mtime = POSIXFiles.modificationTime(absolute) else { return }
        if let known = verified[relative], known.mtime == mtime, !known.hasSubdirectories {
            scan.unchanged.insert(relative)
            return
        }
        var subdirectories: [String] = []
        for entry in try POSIXFiles.list(absolute) {
            let child = relative + "/" + entry.name
            if entry.isDirectory {
                subdirectories.append(child)
                continue
            }
            switch OriginalsEntry(entry.name) {
            case .temp:
                scan.tempFiles.append(child)
                scan.untidy.insert(relative)
            case .recording(let id):
                scan.recordings[id] = child
                scan.untidy.insert(relative)
            case .motion(let id):
                scan.motions[id] = child
            case .original(let id) where scan.originals[id] == nil:
                scan.originals[id] = child
            case .original, .foreign:
                scan.foreignFiles.append(child)
                scan.untidy.insert(relative)
            }
        }
        scan.listed[relative] = DirectoryState(mtime: mtime, hasSubdirectories: !subdirectories.isEmpty)
        for child in subdirectories { try walkOriginals(root, child, verified: verified, into: &scan) }
    }

    /// Calls `visit(directory, files)` for `originals/` and each directory under it, one
    /// directory at a time (library-relative path, names of its files): only one directory's
    /// listing is in memory at once, however big the library.
    static func forEachOriginalsDirectory(
        _ root: String, _ relative: String = "originals", _ visit: (String, [String]) throws -> Void
    ) throws {
        let absolute = root + "/" + relative
        guard POSIXFiles.isDirectory(absolute) else { return }
        var subdirectories: [String] = []
        var files: [String] = []
        for entry in try POSIXFiles.list(absolute) {
            if entry.isDirectory {
                subdirectories.append(relative + "/" + entry.name)
            } else {
                files.append(entry.name)
            }
        }
        try visit(relative, files)
        files = []
        for child in subdirectories.sorted() { try forEachOriginalsDirectory(root, child, visit) }
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
