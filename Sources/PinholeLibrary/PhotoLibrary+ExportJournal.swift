// The export journal: exports recorded before their files are written, so an interrupted one is reported and can be redone.

import GRDB
import PinholeCore
import SystemPackage

/// An export that did not finish: the power was cut, the process died, or writing failed.
public struct InterruptedExport: Sendable, Hashable, Codable {
    /// Its number, for `library export --redo N` and `--forget N`.
    public var id: Int64
    /// The folder it wrote to (absolute).
    public var directory: FilePath
    /// Which file of each photo it copies.
    public var version: ExportVersion
    /// The photos it was to write, in order.
    public var photoIDs: [String]
    /// When it started, ISO 8601.
    public var started: String
    /// Photos whose file (by export name) is in the folder now; whole or not is checked by a redo.
    public var present: Int

    /// The one-line form for logs, status and `library exports`.
    public var line: String {
        "export \(id) to \(directory) (\(started)) did not finish: \(present) of \(photoIDs.count) files there;"
            + " redo it with `library export --redo \(id)` (or drop it with `library export --forget \(id)`)"
    }
}

extension PhotoLibrary {
    /// Records an export about to write `ids` into `target`; returns its journal number. The
    /// record is durable (the library commits with a full sync) before any file is written.
    func beginExportJob(_ ids: [String], to target: String, version: ExportVersion) throws -> Int64 {
        let time = now()
        return try write { db, _ in
            try db.execute(
                sql: """
                    INSERT INTO export_job (directory, version, asset_ids, started_ns, started_offset)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    target, version.rawValue, ids.joined(separator: " "), time.epochNanoseconds,
                    time.utcOffsetSeconds,
                ])
            return db.lastInsertedRowID
        }.0
    }

    /// Removes the record of an export whose files are all durably written.
    func finishExportJob(_ job: Int64) throws {
        _ = try write { db, _ in try db.execute(sql: "DELETE FROM export_job WHERE id = ?", arguments: [job])
        }
    }

    /// Marks an export that failed as interrupted, so that it is listed now; when that fails
    /// it is reported (the next open's recovery marks it anyway).
    func markExportInterrupted(_ job: Int64) {
        cleaning(
            "record export \(job) as interrupted",
            consequence: "`library exports` lists it after the next open"
        ) {
            _ = try write { db, _ in
                try db.execute(sql: "UPDATE export_job SET interrupted = 1 WHERE id = ?", arguments: [job])
            }
        }
    }

    /// The recovery pass: every export still recorded when the library is opened by its only
    /// process was interrupted. Returns them all (earlier ones not yet redone included).
    func markInterruptedExports() throws -> [InterruptedExport] {
        _ = try write { db, _ in try db.execute(sql: "UPDATE export_job SET interrupted = 1") }
        return try interruptedExports()
    }

    /// Exports that did not finish, oldest first, until they are redone or forgotten.
    public func interruptedExports() throws -> [InterruptedExport] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, directory, version, asset_ids, started_ns, started_offset
                    FROM export_job WHERE interrupted = 1 ORDER BY id
                    """
            ).map { row in
                let directory: String = row[1]
                let ids = (row[3] as String).split(separator: " ").map(String.init)
                let started = WallTime(epochNanoseconds: row[4], utcOffsetSeconds: row[5])
                let names = try ids.compactMap { try Asset.fetchOne(db, key: $0) }.map(Self.exportName(of:))
                let present = names.filter { POSIXFiles.exists(directory + "/" + $0) }.count
                return InterruptedExport(
                    id: row[0], directory: FilePath(directory),
                    version: ExportVersion(rawValue: row[2]) ?? .original,
                    photoIDs: ids, started: started.iso8601, present: present)
            }
        }
    }

    /// Runs an interrupted export again: photos whose file is missing are written, files that
    /// are there but differ from what the export writes (torn by a power cut) are replaced,
    /// photos no longer in the library are reported as gone. The record goes once every file
    /// is durably written.
    public func redoExport(_ job: Int64, progress: (TransferProgress) -> Bool = { _ in true }) throws
        -> ExportReport
    {
        guard let interrupted = try interruptedExports().first(where: { $0.id == job }) else {
            throw LibraryError.invalidRequest(
                "no interrupted export \(job); `library exports` lists the ones that did not finish")
        }
        let found = try read { db in
            try interrupted.photoIDs.map { ($0, try Asset.fetchOne(db, key: $0)) }
        }
        let assets = found.compactMap(\.1)
        removeExportTemporaries(of: assets, in: interrupted.directory.string)
        var report = try writeExport(
            assets, to: interrupted.directory.string, version: interrupted.version, replacingDifferent: true,
            progress: progress)
        report.gone = found.filter { $0.1 == nil }.map(\.0)
        if !report.cancelled { try finishExportJob(job) }
        return report
    }

    /// Removes the temporary files (`.<export name>.<random>.tmp`) that an interrupted write of
    /// these photos' exports left in `directory`.
    private func removeExportTemporaries(of assets: [Asset], in directory: String) {
        let prefixes = assets.map { "." + Self.exportName(of: $0) + "." }
        guard let entries = try? POSIXFiles.list(directory) else { return }
        var removed = false
        for entry in entries where entry.name.hasSuffix(".tmp") && !entry.isDirectory {
            guard prefixes.contains(where: { entry.name.hasPrefix($0) }) else { continue }
            let consequence = "the redone export writes its file beside it; remove it by hand"
            if cleaning(
                "remove \(directory)/\(entry.name), left by the interrupted export", consequence: consequence,
                {
                    try POSIXFiles.remove(directory + "/" + entry.name)
                })
            {
                removed = true
            }
        }
        if removed {
            cleaning(
                "sync the removal of the interrupted export's temporaries in \(directory)",
                consequence: "a power cut may bring them back; redo the export again then"
            ) {
                try POSIXFiles.syncDirectory(directory)
            }
        }
    }

    /// Drops the record of an interrupted export (the user will not redo it).
    public func forgetExport(_ job: Int64) throws {
        let removed = try write { db, _ in
            try db.execute(sql: "DELETE FROM export_job WHERE id = ? AND interrupted = 1", arguments: [job])
            return db.changesCount
        }.0
        guard removed > 0 else {
            throw LibraryError.invalidRequest(
                "no interrupted export \(job); `library exports` lists the ones that did not finish")
        }
    }
}
