// Exporting photos (originals or their current rendered version) to a folder, with progress.

import PinholeCore
import SystemPackage

/// Which file of a photo an export copies.
public enum ExportVersion: String, Sendable, Hashable, Codable {
    /// The untouched original.
    case original
    /// The rendered edit when the photo is edited, else the original.
    case current
}

/// What an export did.
public struct ExportReport: Sendable, Hashable, Codable {
    /// Files written, absolute paths, in query order.
    public var written: [String] = []
    /// Files skipped because a file of that name already existed.
    public var skipped: [String] = []
    /// True when the export stopped early because progress asked it to.
    public var cancelled = false
    /// Files of a redone export that were there but not whole (torn by a power cut), rewritten;
    /// they are also in `written`.
    public var replaced: [String] = []
    /// Photos of a redone export that are no longer in the library, by identifier.
    public var gone: [String] = []
}

extension PhotoLibrary {
    /// Copies the photos of `query` (e.g. an album's query) into `directory` (created if
    /// needed) as `YYYYMMDD_HHMMSS_<id suffix>.jpg` (a clip `.mp4`; a Live Photo as its Apple
    /// pair `.jpg` + `.mov` and its Motion Photo `.MP.jpg`) in local capture time, each file written
    /// durably. Existing files are left alone and reported as skipped. `progress` is called
    /// after every photo; return false to stop.
    ///
    /// Power loss: the export is first recorded in the library (durably), then the files are
    /// written, then the record is removed. A record that the next open finds is reported as
    /// an interrupted export (`interruptedExports()`, the recovery report) until it is redone
    /// (`redoExport`) or forgotten, so an export to a stick is never silently incomplete.
    public func export(
        _ query: AssetQuery, to directory: FilePath, version: ExportVersion = .original,
        progress: (TransferProgress) -> Bool = { _ in true }
    ) throws -> ExportReport {
        let target = POSIXFiles.absolute(directory.string)
        let assets = try assets(query)
        guard !assets.isEmpty else { return ExportReport() }
        let job = try beginExportJob(assets.map(\.id), to: target, version: version)
        let report: ExportReport
        do {
            report = try writeExport(assets, to: target, version: version, progress: progress)
        } catch {
            markExportInterrupted(job)
            throw error
        }
        try finishExportJob(job)
        return report
    }

    /// Writes `assets` into `target`; with `replacingDifferent`, a file of the export's name
    /// whose bytes differ from what the export writes (left torn by a power cut) is replaced.
    func writeExport(
        _ assets: [Asset], to target: String, version: ExportVersion, replacingDifferent: Bool = false,
        progress: (TransferProgress) -> Bool
    ) throws -> ExportReport {
        var report = ExportReport()
        do {
            try POSIXFiles.makeDirectories(target)
            for (index, asset) in assets.enumerated() {
                var path = target
                for file in try exportFiles(of: asset, version: version) {
                    path = target + "/" + file.name
                    if !POSIXFiles.exists(path) {
                        try POSIXFiles.writeDurably(to: path, producing: file.produce)
                        report.written.append(path)
                    } else if replacingDifferent {
                        if try fileHolds(path, file.produce) {
                            report.skipped.append(path)
                        } else {
                            try POSIXFiles.writeDurably(to: path, replace: true, producing: file.produce)
                            report.written.append(path)
                            report.replaced.append(path)
                        }
                    } else {
                        report.skipped.append(path)
                    }
                }
                if !progress(
                    TransferProgress(completed: index + 1, total: assets.count, file: FilePath(path)))
                {
                    report.cancelled = index + 1 < assets.count
                    break
                }
            }
        } catch {
            throw mapped(error)
        }
        return report
    }

    /// Writes `bytes` to a file the user named (`library thumbnail --out FILE`), durably, and
    /// returns its absolute path. An existing file is replaced only when `replace` is true
    /// (`--force`); a file inside the library or a protected directory (the configuration
    /// folder, `LibraryOptions.protectedDirectories`) is refused, links resolved.
    public func writeOut(_ bytes: [UInt8], to path: FilePath, replace: Bool = false) throws -> FilePath {
        let file = POSIXFiles.absolute(path.string)
        let parent =
            POSIXFiles.realPath(POSIXFiles.parentDirectory(of: file)) ?? POSIXFiles.parentDirectory(of: file)
        let name = String(file[file.index(after: file.lastIndex(of: "/")!)...])
        for directory in [layout.root] + options.protectedDirectories.map(\.string) {
            let protected = POSIXFiles.realPath(directory) ?? directory
            if parent == protected || parent.hasPrefix(protected.hasSuffix("/") ? protected : protected + "/")
            {
                throw LibraryError.invalidRequest(
                    "\(file) is inside \(directory == layout.root ? "the library" : directory): write it elsewhere"
                )
            }
        }
        if !replace && POSIXFiles.exists(parent + "/" + name) {
            throw LibraryError.invalidRequest("\(file) exists: add --force to replace it")
        }
        do {
            try POSIXFiles.writeDurably(bytes, to: parent + "/" + name, replace: replace)
        } catch {
            throw mapped(error)
        }
        return FilePath(file)
    }

    /// `YYYYMMDD_HHMMSS_<last 12 hex digits of the id>.jpg` in local capture time (`.mp4` for
    /// a clip).
    static func exportName(of asset: Asset) -> String {
        exportStem(of: asset) + (asset.mediaType == .video ? ".mp4" : ".jpg")
    }

    /// `YYYYMMDD_HHMMSS_<last 12 hex digits of the id>` in local capture time.
    static func exportStem(of asset: Asset) -> String {
        let c = asset.created.local
        let date = "\(c.year)\(twoDigits(c.month))\(twoDigits(c.day))"
        let time = "\(twoDigits(c.hour))\(twoDigits(c.minute))\(twoDigits(c.second))"
        return "\(date)_\(time)_\(asset.id.suffix(12))"
    }

    /// The files an export writes for `asset`: its name and what writes its bytes. A photo or
    /// a clip is one file; a Live Photo is three (see `livePhotoFiles`). A clip is streamed from
    /// its original in pieces of `options.streamChunkBytes`, never read whole; a redated one is
    /// first rewritten by libavformat with its corrected `creation_time` (`exportedClipDates`).
    func exportFiles(of asset: Asset, version: ExportVersion) throws -> [(
        name: String, produce: ByteProducer
    )] {
        let original = layout.absolute(asset.path)
        let source = version == .current ? try currentAbsolutePath(of: asset) : original
        if asset.mediaType == .video {
            let dates = Self.exportedClipDates(of: asset, start: asset.created)
            guard !dates.isEmpty else {
                return [(Self.exportName(of: asset), { write in try self.stream(source, to: write) })]
            }
            return [
                (
                    Self.exportName(of: asset),
                    { write in
                        try self.rewriting(source, as: .mp4, metadata: dates) {
                            try self.stream($0, to: write)
                        }
                    }
                )
            ]
        }
        let isOriginal = source == original
        let still = { Self.exportBytes(of: asset, try POSIXFiles.read(source), isOriginal: isOriginal) }
        guard asset.mediaType == .live else {
            return [(Self.exportName(of: asset), { write in try still().withUnsafeBytes { try write($0) } })]
        }
        return livePhotoFiles(of: asset, still: still)
    }
}
