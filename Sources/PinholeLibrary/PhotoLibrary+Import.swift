// Importing a folder of JPEGs: EXIF read, duplicates skipped, batches committed with progress.

import GRDB
import PinholeCore
import PinholeImaging
import PinholeLibav
import SystemPackage

/// Progress of an import or export, reported after each file.
public struct TransferProgress: Sendable, Hashable {
    /// Files handled so far.
    public var completed: Int
    /// Files to handle in total.
    public var total: Int
    /// The file just handled.
    public var file: FilePath
}

/// What an import did.
public struct ImportReport: Sendable, Hashable, Codable {
    /// Identifiers of the photos imported, in file name order.
    public var imported: [String] = []
    /// Files skipped because the library already has the same bytes.
    public var duplicates: [String] = []
    /// Files that could not be imported, with the reason.
    public var failures: [String: String] = [:]
    /// True when the import stopped early because progress asked it to.
    public var cancelled = false
}

extension PhotoLibrary {
    /// The largest file import reads (a 50 MP JPEG is about 25 MB).
    public static let importFileLimit = 64 << 20
    /// How deep import descends into folders (a camera card has three or four levels).
    public static let importDepthLimit = 16

    /// Imports the JPEG files (`.jpg`, `.jpeg`, any case), MP4 clips (`.mp4`: see
    /// `importClip`) and Live Photos (a `.mov` beside a JPEG of the same name, Apple's pair:
    /// the still becomes a Live Photo with the movie as its motion) of `directory`, recursively (at most
    /// `importDepthLimit` folders deep, symbolic links not followed), in name order. Only
    /// regular files of at most `importFileLimit` bytes are read (a FIFO, a device or a link
    /// is a failure of that file, never a hang). Each photo's metadata comes from its EXIF;
    /// files whose bytes are already in the library are skipped. Photos are committed in
    /// batches of `batchSize` (sooner when they hold `importFileLimit` bytes), each batch
    /// atomic and durable. `progress` is called after every file; return false to stop
    /// (batches already committed stay).
    public func importFolder(
        _ directory: FilePath, batchSize: Int = 32,
        progress: (TransferProgress) -> Bool = { _ in true }
    ) throws -> ImportReport {
        var files: [String] = []
        var tooDeep: [String] = []
        do {
            try collectFiles(
                in: POSIXFiles.absolute(directory.string), depth: 0, into: &files, tooDeep: &tooDeep)
        } catch {
            throw mapped(error)
        }
        files.sort()
        // A Live Photo's Apple pair: a .mov beside a JPEG of the same name becomes its motion.
        let pairs = Self.livePhotoPairs(files)
        let motions = Set(pairs.values)
        files.removeAll { motions.contains($0) }
        var stillIDs: [String: String] = [:]
        var report = ImportReport()
        for folder in tooDeep {
            report.failures[folder] = "more than \(Self.importDepthLimit) folders deep: not imported"
        }
        var pending: [(file: String, jpeg: [UInt8], metadata: PhotoMetadata)] = []
        var motionPhotos: [String: MotionPhotoParts] = [:]
        var pendingBytes = 0
        var seen: Set<String> = []

        func flush() throws {
            guard !pending.isEmpty else { return }
            let batch = pending
            pending = []
            pendingBytes = 0
            let result = try performChanges { changes in
                for item in batch { changes.createAsset(jpeg: item.jpeg, metadata: item.metadata) }
            }
            report.imported += result.createdAssetIDs
            for (item, id) in zip(batch, result.createdAssetIDs) { stillIDs[item.file] = id }
        }

        for (index, file) in files.enumerated() {
            do {
                if file.lowercased().hasSuffix(".mov") {
                    throw LibraryError.invalidImage(
                        path: file,
                        reason:
                            "a .mov is imported only as a Live Photo's motion, beside its still (same name, .jpg)"
                    )
                } else if file.lowercased().hasSuffix(".mp4") {
                    if let id = try importClip(file) {
                        report.imported.append(id)
                    } else {
                        report.duplicates.append(file)
                    }
                } else {
                    // A Motion Photo: the still is imported, its MP4 becomes the motion below
                    // (streamed from the file then, never held whole).
                    let (jpeg, motionPhoto) = try MotionPhotoParts.read(file, limit: Self.importFileLimit)
                    let checksum = Checksum.string(for: jpeg)
                    let key = checksum + "/\(jpeg.count)"
                    if try seen.contains(key) || isStored(checksum: checksum, size: jpeg.count) {
                        report.duplicates.append(file)
                    } else {
                        let metadata = try OriginalReader.metadata(of: jpeg, path: file)
                        seen.insert(key)
                        pending.append((file, jpeg, metadata))
                        motionPhotos[file] = motionPhoto
                        pendingBytes += jpeg.count
                    }
                }
            } catch let error as LibraryError {
                if case .storageFull = error { throw error }
                report.failures[file] = error.description
            } catch let failure as POSIXFailure {
                report.failures[file] = failure.description
            }
            if pending.count >= batchSize || pendingBytes >= Self.importFileLimit { try flush() }
            if !progress(TransferProgress(completed: index + 1, total: files.count, file: FilePath(file))) {
                report.cancelled = index + 1 < files.count
                break
            }
        }
        try flush()
        for (still, motion) in pairs.sorted(by: { $0.key < $1.key }) {
            guard let id = stillIDs[still] else { continue }  // a duplicate or a failed still
            do {
                try attachImportedMotion(to: id, from: motion)
            } catch let error as LibraryError {
                if case .storageFull = error { throw error }
                report.failures[motion] = error.description
            }
        }
        for (file, parts) in motionPhotos.sorted(by: { $0.key < $1.key }) {
            guard let id = stillIDs[file] else { continue }
            do {
                try attachMotion(
                    to: id, videoIn: file, at: parts.videoOffset, length: parts.videoLength,
                    stillOffset: .microseconds(parts.presentationMicroseconds ?? 0))
            } catch let error as LibraryError {
                if case .storageFull = error { throw error }
                report.failures[file] = error.description
            }
        }
        return report
    }

    /// JPEG → MOV of the same directory and name (case aside): Apple's Live Photo pairs.
    static func livePhotoPairs(_ files: [String]) -> [String: String] {
        func stem(_ path: String) -> String {
            String(path[..<(path.lastIndex(of: ".") ?? path.endIndex)]).lowercased()
        }
        var stills: [String: String] = [:]
        for file in files where [".jpg", ".jpeg"].contains(where: file.lowercased().hasSuffix) {
            stills[stem(file)] = file
        }
        var pairs: [String: String] = [:]
        for file in files where file.lowercased().hasSuffix(".mov") {
            if let still = stills[stem(file)] { pairs[still] = file }
        }
        return pairs
    }

    /// Makes the imported still `id` a Live Photo with the MOV at `file`, rewritten by
    /// libavformat as the MP4 the library keeps (packets copied); the still's time is the
    /// clip's middle (where Apple's cameras put it).
    private func attachImportedMotion(to id: String, from file: String) throws {
        let scratch = layout.root + "/cache/.import-\(id).mp4"
        defer { try? POSIXFiles.remove(scratch) }
        let clip: ProbedClip
        do {
            clip = try LibavClipReader.probe(FilePath(file))
            try LibavClipRemuxer.rewrite(file, to: scratch, as: .mp4, metadata: [])
        } catch {
            throw LibraryError.invalidImage(path: file, reason: "not a movie Pinhole can read (\(error))")
        }
        try attachMotion(
            to: id, clip: FilePath(scratch), stillOffset: .microseconds(clip.durationMicroseconds / 2))
    }

    /// Imports one MP4 clip: copied into the library the way a recording is written (a hidden
    /// file in the day directory, then fsync, a rename that never replaces, the directory's
    /// fsync), read back by libavformat (size, rate, frames, duration, creation time) and
    /// indexed as a video. Returns its identifier, or nil when the library already holds the
    /// same bytes (the copy is removed).
    /// - Throws: `LibraryError.invalidImage` when libavformat reads no video frame in it.
    func importClip(_ file: String) throws -> String? {
        let clip = try beginClip(created: nil)
        do {
            try POSIXFiles.forEachChunk(of: file) { try clip.write($0) }
            if try isStored(checksum: clip.checksum, size: Int(clip.byteCount)) {
                clip.discard()
                return nil
            }
            let probed: ProbedClip
            do {
                probed = try LibavClipReader.probe(FilePath(clip.temporaryPath))
            } catch {
                throw LibraryError.invalidImage(path: file, reason: "not a movie Pinhole can read (\(error))")
            }
            return try clip.complete(ClipRecord(probed)).id
        } catch {
            clip.discard()
            throw error
        }
    }

    /// Whether an original with this checksum and size is already indexed.
    private func isStored(checksum: String, size: Int) throws -> Bool {
        try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM asset WHERE checksum = ? AND file_size = ? LIMIT 1",
                arguments: [checksum, size]) != nil
        }
    }

    /// Appends the absolute paths of the JPEG and MP4 files under `directory` (hidden entries skipped,
    /// symbolic links to folders not followed); folders deeper than `importDepthLimit` go to
    /// `tooDeep` unread.
    private func collectFiles(
        in directory: String, depth: Int, into files: inout [String], tooDeep: inout [String]
    ) throws {
        for entry in try POSIXFiles.list(directory, followingLinks: false) where !entry.name.hasPrefix(".") {
            let path = directory + "/" + entry.name
            if entry.isDirectory {
                guard depth < Self.importDepthLimit else {
                    tooDeep.append(path)
                    continue
                }
                try collectFiles(in: path, depth: depth + 1, into: &files, tooDeep: &tooDeep)
            } else {
                let lower = entry.name.lowercased()
                if [".jpg", ".jpeg", ".mp4", ".mov"].contains(where: lower.hasSuffix) {
                    files.append(path)
                }
            }
        }
    }
}
