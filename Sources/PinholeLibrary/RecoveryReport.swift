// What the open-time recovery pass and `fsck` found and did.

/// What the recovery pass did when the library was opened.
public struct RecoveryReport: Sendable, Codable, Hashable {
    /// Partial temporary files (from interrupted writes) that were removed, library-relative.
    public var removedTempFiles: [String] = []
    /// Identifiers of originals found on disk without an index entry, re-indexed from their EXIF.
    public var adoptedAssets: [String] = []
    /// Recordings cut short (a power cut or a kill while recording), cut back to their last
    /// whole fragment and indexed as shorter clips: `ID: N frames, S s`.
    public var adoptedRecordings: [String] = []
    /// Recordings cut before their first frame was whole (the header alone, or part of the first
    /// frame), removed: not one frame in them could be shown. Their identifiers.
    public var removedRecordings: [String] = []
    /// Files that could not be adopted, moved under `quarantine/` (their former relative paths).
    public var quarantinedFiles: [String] = []
    /// Identifiers of indexed assets whose original file is missing.
    public var missingFiles: [String] = []
    /// Permanent deletions interrupted before their commit, undone (the photo stays).
    public var restoredPurges: [String] = []
    /// Permanent deletions committed but not finished on disk, completed.
    public var completedPurges: [String] = []
    /// Photos purged from Recently Deleted because their retention period expired.
    public var expiredPurges: [String] = []
    /// Set when the database was unusable: why, and where the damaged copy was moved.
    /// The index was then rebuilt from the originals (albums, favorites and edits are lost).
    public var rebuiltIndex: String?
    /// Set when another process had the library open: no repair was attempted (that process
    /// did its own recovery when it opened the library).
    public var deferred: String?
    /// Exports that did not finish (the library itself needs no repair for them: the user
    /// redoes or forgets them).
    public var interruptedExports: [InterruptedExport] = []
    /// Repairs that could not be made (a partial file that could not be removed, a file that
    /// could not be moved), each with its reason; the next open tries them again.
    public var failedRepairs: [String] = []

    /// True when the pass found nothing to repair.
    public var isClean: Bool {
        removedTempFiles.isEmpty && adoptedAssets.isEmpty && adoptedRecordings.isEmpty
            && removedRecordings.isEmpty
            && quarantinedFiles.isEmpty
            && missingFiles.isEmpty
            && restoredPurges.isEmpty && completedPurges.isEmpty && rebuiltIndex == nil
            && failedRepairs.isEmpty
    }

    /// One line per finding, for logs and the console.
    public var lines: [String] {
        var lines: [String] = []
        if let deferred { lines.append("recovery deferred: \(deferred)") }
        if let rebuiltIndex { lines.append("index rebuilt: \(rebuiltIndex)") }
        lines += removedTempFiles.map { "removed partial file \($0)" }
        lines += adoptedAssets.map { "adopted unindexed original \($0)" }
        lines += adoptedRecordings.map { "adopted recording cut short \($0)" }
        lines += removedRecordings.map {
            "removed recording cut before its first frame \($0): not one whole frame in it, nothing to keep"
        }
        lines += quarantinedFiles.map { "quarantined unreadable file \($0)" }
        lines += missingFiles.map { "original missing for photo \($0)" }
        lines += restoredPurges.map { "undid interrupted permanent deletion of \($0)" }
        lines += completedPurges.map { "completed permanent deletion of \($0)" }
        lines += expiredPurges.map { "purged expired deleted photo \($0)" }
        lines += interruptedExports.map(\.line)
        lines += failedRepairs
        return lines
    }
}

/// The result of a consistency check of index and files (nothing is changed).
public struct FsckReport: Sendable, Codable, Hashable {
    /// Number of indexed assets.
    public var assetCount: Int = 0
    /// Problems reported by SQLite's integrity check (empty when fine).
    public var databaseProblems: [String] = []
    /// Partial temporary files present, library-relative.
    public var tempFiles: [String] = []
    /// Files under `originals/` with no index entry, library-relative.
    public var orphanFiles: [String] = []
    /// Identifiers of assets whose original is missing.
    public var missingFiles: [String] = []
    /// Identifiers of assets whose original's size or checksum differs from the index
    /// (checked only when asked, it reads every file).
    public var checksumMismatches: [String] = []
    /// Rendered edits referenced by the index but absent, as asset identifiers.
    public var missingRenders: [String] = []
    /// Interrupted permanent deletions waiting under `.purging/`.
    public var pendingPurges: [String] = []
    /// Files kept under `quarantine/` (informational: they do not make the library unclean).
    public var quarantinedFiles: Int = 0
    /// Clips being recorded (`.ID.mp4.recording`), or cut short by a power cut: the next start
    /// adopts those as shorter clips, or removes one holding not a frame (informational: a
    /// recording in progress is not a problem).
    public var recordings: [String] = []

    /// True when index and files agree.
    public var isClean: Bool {
        databaseProblems.isEmpty && tempFiles.isEmpty && orphanFiles.isEmpty && missingFiles.isEmpty
            && checksumMismatches.isEmpty && missingRenders.isEmpty && pendingPurges.isEmpty
    }

    /// One line per problem, and a summary line.
    public var lines: [String] {
        var lines: [String] = []
        lines += databaseProblems.map { "database: \($0)" }
        lines += tempFiles.map { "partial file: \($0)" }
        lines += orphanFiles.map { "unindexed file: \($0)" }
        lines += missingFiles.map { "missing original: \($0)" }
        lines += checksumMismatches.map { "checksum mismatch: \($0)" }
        lines += missingRenders.map { "missing rendered edit: \($0)" }
        lines += pendingPurges.map { "interrupted permanent deletion: \($0)" }
        let summary = isClean ? "clean" : "\(lines.count) problem(s)"
        lines += recordings.map {
            "recording (in progress, or cut short: adopted at the next start, removed if it holds no whole frame): \($0)"
        }
        lines.append(
            "fsck: \(summary); \(assetCount) photos indexed, \(quarantinedFiles) file(s) in quarantine")
        return lines
    }
}
