// The open-time recovery pass and the read-only consistency check (fsck).

import GRDB
import PinholeCore

extension PhotoLibrary {
    /// Reconciles index and files, recording what it did in `report`.
    ///
    /// Only directories of originals that changed since they were last verified are listed,
    /// and only the index rows that can be affected are read: those in listed directories,
    /// in verified directories that vanished, and those added since the last pass.
    func recover(into report: inout RecoveryReport) throws {
        let (verified, watermark) = try verifiedState()
        var scan: DiskScan
        do {
            scan = try LibraryScanner.scan(layout, skipping: verified)
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
        var rows = try affectedRows(scan, verified: verified, watermark: watermark)
        var changedDirectories = scan.untidy

        for relative in scan.tempFiles {
            do {
                try POSIXFiles.remove(layout.absolute(relative))
                report.removedTempFiles.append(relative)
            } catch {
                report.failedRepairs.append("could not remove partial file \(relative): \(error)")
            }
        }

        // Interrupted permanent deletions: the index decides whether the photo stays.
        let purgeHomes = try paths(of: Array(scan.purging.keys))
        for (id, relative) in scan.purging.sorted(by: { $0.key < $1.key }) {
            if let home = purgeHomes[id] {
                do {
                    try ensureDirectory(POSIXFiles.parentDirectory(of: layout.absolute(home)))
                    try POSIXFiles.moveDurably(layout.absolute(relative), to: layout.absolute(home))
                    scan.originals[id] = home
                    changedDirectories.insert(POSIXFiles.parentDirectory(of: home))
                    report.restoredPurges.append(id)
                } catch {
                    report.failedRepairs.append(
                        "could not undo the interrupted permanent deletion of \(id) (\(relative)): \(error)")
                }
            } else {
                do {
                    try POSIXFiles.remove(layout.absolute(relative))
                    report.completedPurges.append(id)
                } catch {
                    report.failedRepairs.append(
                        "could not complete the permanent deletion of \(id) (\(relative)): \(error)")
                }
            }
        }

        try finishMotionPurges(scan.purgingMotions, into: &report)

        // Recordings cut short: cut back to their last whole fragment, named, then adopted below.
        for (id, relative) in scan.recordings.sorted(by: { $0.key < $1.key }) {
            if let named = finishRecording(id: id, relative: relative, into: &report) {
                scan.originals[id] = named
            }
            changedDirectories.insert(POSIXFiles.parentDirectory(of: relative))
        }

        // Originals without an index entry: adopt them if they are whole JPEGs or clips.
        let candidates = scan.originals.filter { rows[$0.key]?.path != $0.value }
        let indexedElsewhere = try paths(of: Array(candidates.keys))
        var adopted: [Asset] = []
        for (id, relative) in candidates.sorted(by: { $0.key < $1.key }) {
            // Indexed right there (outside a leaf directory).
            if indexedElsewhere[id] == relative { continue }
            if indexedElsewhere[id] == nil, relative.hasSuffix(".mp4"), let reason = clipsUnreadable() {
                report.failedRepairs.append(
                    "left the unindexed clip \(relative) for the next open: \(reason)")
                changedDirectories.insert(POSIXFiles.parentDirectory(of: relative))
                continue
            }
            if indexedElsewhere[id] == nil, let asset = adoptable(id: id, relative: relative) {
                adopted.append(asset)
            } else {
                quarantine(relative, into: &report)
                changedDirectories.insert(POSIXFiles.parentDirectory(of: relative))
            }
        }
        for relative in scan.foreignFiles {
            quarantine(relative, into: &report)
        }
        if !adopted.isEmpty {
            _ = try write { db, tracker in
                try tracker.willChange(db, assets: adopted.map(\.id))
                for asset in adopted {
                    try asset.insert(db)
                }
            }
            report.adoptedAssets = adopted.map(\.id)
        }

        try reconcileMotions(scan.motions, into: &report)

        // Index rows whose original is gone.
        var missing: [String] = []
        for (id, row) in rows {
            let directory = POSIXFiles.parentDirectory(of: row.path)
            let present: Bool
            if scan.listed[directory] != nil {
                present = scan.originals[id] == row.path
            } else if scan.unchanged.contains(directory) {
                present = POSIXFiles.exists(layout.absolute(row.path))
            } else {
                present = false
            }
            if !present {
                missing.append(id)
                changedDirectories.insert(directory)
            }
        }
        report.missingFiles = missing.sorted()
        for id in report.restoredPurges { rows[id] = nil }

        try removeStaleRenders(scan.renders, into: &report)
        report.expiredPurges = try purgeExpired()
        try saveVerifiedState(
            scan, verified: verified, rows: rows, changed: changedDirectories, previousWatermark: watermark)
        try refreshStatistics()
        report.interruptedExports = try markInterruptedExports()
    }

    /// The verified directories and the row watermark recorded by the last recovery pass.
    private func verifiedState() throws -> ([String: DirectoryState], Int64) {
        try read { db in
            var directories: [String: DirectoryState] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT path, mtime_ns, has_subdirectories FROM verified_directory")
            {
                directories[row[0]] = DirectoryState(mtime: row[1], hasSubdirectories: row[2])
            }
            let watermark =
                try Int64.fetchOne(db, sql: "SELECT value FROM library_state WHERE key = 'verified_rowid'")
                ?? 0
            return (directories, watermark)
        }
    }

    /// Index rows the pass must check: in listed leaf directories, in verified directories
    /// that vanished, and added after the watermark. Identifier → (path, rowid).
    private func affectedRows(
        _ scan: DiskScan, verified: [String: DirectoryState],
        watermark: Int64
    ) throws -> [String: (path: String, rowid: Int64)] {
        let listedLeaves = scan.listed.filter { !$0.value.hasSubdirectories }.map(\.key)
        let vanished = verified.keys.filter { !scan.visited($0) }
        return try read { db in
            var rows: [String: (path: String, rowid: Int64)] = [:]
            for directory in listedLeaves + vanished {
                // '0' follows '/' in byte order: the range holds exactly the paths under "directory/".
                let cursor = try Row.fetchCursor(
                    db, sql: "SELECT id, path, rowid FROM asset WHERE path > ? AND path < ?",
                    arguments: [directory + "/", directory + "0"])
                while let row = try cursor.next() {
                    let path: String = row[1]
                    if POSIXFiles.parentDirectory(of: path) == directory { rows[row[0]] = (path, row[2]) }
                }
            }
            let recent = try Row.fetchCursor(
                db, sql: "SELECT id, path, rowid FROM asset WHERE rowid > ?", arguments: [watermark])
            while let row = try recent.next() { rows[row[0]] = (row[1], row[2]) }
            return rows
        }
    }

    /// The indexed paths of `ids` (those that are indexed).
    private func paths(of ids: [String]) throws -> [String: String] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            var result: [String: String] = [:]
            var start = 0
            while start < ids.count {
                let chunk = Array(ids[start..<min(ids.count, start + 500)])
                let sql =
                    "SELECT id, path FROM asset WHERE id IN (" + chunk.map { _ in "?" }.joined(separator: ",")
                    + ")"
                for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)) {
                    result[row[0]] = row[1]
                }
                start += 500
            }
            return result
        }
    }

    /// Records the directories found consistent (not changed by this pass, and old enough
    /// that a later change cannot share their modification time), forgets vanished or
    /// changed ones, and moves the watermark up to the first row not covered by a record.
    private func saveVerifiedState(
        _ scan: DiskScan, verified: [String: DirectoryState],
        rows: [String: (path: String, rowid: Int64)], changed: Set<String>, previousWatermark: Int64
    ) throws {
        let settled = POSIXFiles.realtimeNanoseconds() - 2_000_000_000
        var recorded = Set(scan.unchanged)
        _ = try write { db, _ in
            for (directory, state) in scan.listed {
                if !changed.contains(directory) && state.mtime < settled {
                    recorded.insert(directory)
                    if verified[directory] != state {
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO verified_directory VALUES (?, ?, ?)",
                            arguments: [directory, state.mtime, state.hasSubdirectories])
                    }
                } else if verified[directory] != nil {
                    try db.execute(
                        sql: "DELETE FROM verified_directory WHERE path = ?", arguments: [directory])
                }
            }
            for directory in verified.keys where !scan.visited(directory) {
                try db.execute(sql: "DELETE FROM verified_directory WHERE path = ?", arguments: [directory])
            }
            var watermark = try Int64.fetchOne(db, sql: "SELECT MAX(rowid) FROM asset") ?? 0
            for row in rows.values where !recorded.contains(POSIXFiles.parentDirectory(of: row.path)) {
                watermark = min(watermark, row.rowid - 1)
            }
            // Unchanged (a clean open): nothing written, so nothing committed and synced.
            if watermark != previousWatermark {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO library_state VALUES ('verified_rowid', ?)",
                    arguments: [watermark])
            }
        }
    }

    /// Runs ANALYZE when the planner's statistics are missing or the library grew or shrank
    /// more than twofold since, so queries pick the right index (favorites, camera, …) at scale.
    private func refreshStatistics() throws {
        // The maintained tally holds every row (AssetTally): a few rows to read, where
        // COUNT(*) walked an index of every asset at each open (tens of ms at a million).
        let assetCount = try read { db in
            try Int.fetchOne(db, sql: "SELECT ifnull(SUM(n), 0) FROM asset_tally") ?? 0
        }
        guard assetCount >= 1000 else { return }
        let recorded = try read { db -> Int? in
            guard try db.tableExists("sqlite_stat1") else { return nil }
            let stat = try String.fetchOne(
                db, sql: "SELECT stat FROM sqlite_stat1 WHERE tbl = 'asset' LIMIT 1")
            return stat.flatMap { $0.split(separator: " ").first.flatMap { Int($0) } }
        }
        if let recorded, assetCount <= recorded * 2, assetCount * 2 >= recorded { return }
        _ = try write { db, _ in try db.execute(sql: "ANALYZE") }
    }

    /// The record for an unindexed original, or nil when it is not a complete JPEG or a clip
    /// libavformat reads.
    private func adoptable(id: String, relative: String) -> Asset? {
        let absolute = layout.absolute(relative)
        if relative.hasSuffix(".mp4") { return adoptableClip(id: id, relative: relative) }
        guard let bytes = try? POSIXFiles.read(absolute),
            let metadata = try? OriginalReader.metadata(of: bytes, path: relative)
        else { return nil }
        let added = Identifier.time(of: id) ?? now()
        return Asset(
            id: id, path: relative, metadata: metadata, added: added,
            fileSize: Int64(bytes.count), checksum: Checksum.string(for: bytes))
    }

    /// Moves a library-relative file under `quarantine/`, keeping its path in the name, and
    /// reports it as quarantined only when the move succeeded.
    func quarantine(_ relative: String, into report: inout RecoveryReport) {
        let flat = relative.split(separator: "/").joined(separator: "_")
        var target = layout.quarantine + "/" + flat
        var suffix = 1
        while POSIXFiles.exists(target) {
            target = layout.quarantine + "/\(suffix)-" + flat
            suffix += 1
        }
        do {
            try POSIXFiles.moveDurably(layout.absolute(relative), to: target)
            report.quarantinedFiles.append(relative)
        } catch {
            report.failedRepairs.append("could not quarantine \(relative): \(error)")
        }
    }

    /// Removes rendered edits that no edit record refers to (derived files, safe to drop).
    private func removeStaleRenders(_ renders: [String: [String]], into report: inout RecoveryReport) throws {
        guard !renders.isEmpty else { return }
        let current = try read { db in
            Set(try String.fetchAll(db, sql: "SELECT render_path FROM edit"))
        }
        for (_, paths) in renders {
            for path in paths where !current.contains(path) {
                do {
                    try POSIXFiles.remove(layout.absolute(path))
                } catch {
                    report.failedRepairs.append("could not remove stale rendered edit \(path): \(error)")
                }
                POSIXFiles.removeEmptyDirectory(POSIXFiles.parentDirectory(of: layout.absolute(path)))
            }
        }
    }

}
