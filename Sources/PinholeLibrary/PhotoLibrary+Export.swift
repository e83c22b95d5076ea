// Exporting photos (originals or their current rendered version) to a folder, with progress.

import PinholeCore

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
}

extension PhotoLibrary {
    /// Copies the photos of `query` (e.g. an album's query) into `directory` (created if
    /// needed) as `YYYYMMDD_HHMMSS_<id suffix>.jpg` in local capture time, each file written
    /// durably. Existing files are left alone and reported as skipped. `progress` is called
    /// after every photo; return false to stop.
    public func export(
        _ query: AssetQuery, to directory: String, version: ExportVersion = .original,
        progress: (TransferProgress) -> Bool = { _ in true }
    ) throws -> ExportReport {
        let target = POSIXFiles.absolute(directory)
        let assets = try assets(query)
        var report = ExportReport()
        do {
            try POSIXFiles.makeDirectories(target)
            for (index, asset) in assets.enumerated() {
                let source = version == .current ? try currentFilePath(of: asset) : fileURLPath(of: asset)
                let path = target + "/" + Self.exportName(of: asset)
                if POSIXFiles.exists(path) {
                    report.skipped.append(path)
                } else {
                    try POSIXFiles.writeDurably(try POSIXFiles.read(source), to: path)
                    report.written.append(path)
                }
                if !progress(TransferProgress(completed: index + 1, total: assets.count, file: path)) {
                    report.cancelled = index + 1 < assets.count
                    break
                }
            }
        } catch {
            throw mapped(error)
        }
        return report
    }

    /// Writes `bytes` (a thumbnail, say) to `path` outside the library, durably, replacing
    /// what is there; returns the absolute path written. Errors are `LibraryError`s.
    public func writeOut(_ bytes: [UInt8], to path: String) throws -> String {
        let file = POSIXFiles.absolute(path)
        do {
            try POSIXFiles.writeDurably(bytes, to: file, replace: true)
        } catch {
            throw mapped(error)
        }
        return file
    }

    /// `YYYYMMDD_HHMMSS_<last 12 hex digits of the id>.jpg` in local capture time.
    static func exportName(of asset: Asset) -> String {
        let c = asset.created.local
        let date = "\(c.year)\(twoDigits(c.month))\(twoDigits(c.day))"
        let time = "\(twoDigits(c.hour))\(twoDigits(c.minute))\(twoDigits(c.second))"
        return "\(date)_\(time)_\(asset.id.suffix(12)).jpg"
    }
}
