// The read-only consistency check of index and files (`pinhole library fsck`), in bounded memory.

import GRDB

extension PhotoLibrary {
    /// Checks index and files without changing anything. With `verifyChecksums`, every
    /// original is read and its size and CRC-32 compared with the index (slow on big libraries).
    ///
    /// Memory stays bounded however big the library: the files are compared with the index
    /// one directory of originals at a time (its names looked up by identifier), and the
    /// index with the files one page of rows at a time (keyset on the identifier, each page
    /// its own read, so that no snapshot is held while files are read). Only the problems
    /// found are kept.
    public func fsck(verifyChecksums: Bool) throws -> FsckReport {
        try fsck(verifyChecksums: verifyChecksums, pageSize: 500)
    }

    /// `fsck(verifyChecksums:)` reading `pageSize` rows of the index at once, and looking up
    /// that many identifiers per query.
    func fsck(verifyChecksums: Bool, pageSize: Int) throws -> FsckReport {
        var report = FsckReport()
        report.databaseProblems = try read { db in
            try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
        }
        do {
            let others = try LibraryScanner.scan(layout, full: true, originals: false)
            report.tempFiles = others.tempFiles
            report.pendingPurges = Array(Set(others.purging.keys).union(others.purgingMotions.keys)).sorted()
            report.quarantinedFiles = others.quarantined
            try LibraryScanner.forEachOriginalsDirectory(layout.root) { directory, files in
                try checkOriginalsDirectory(directory, files: files, pageSize: pageSize, into: &report)
            }
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
        try checkIndexedFiles(verifyChecksums: verifyChecksums, pageSize: pageSize, into: &report)
        try checkRenders(pageSize: pageSize, into: &report)
        report.tempFiles.sort()
        report.orphanFiles.sort()
        report.missingFiles.sort()
        report.recordings.sort()
        return report
    }

    /// `fsck()` without checksum verification (the form the appliance calls).
    public func fsck() throws -> FsckReport { try fsck(verifyChecksums: false) }

    /// Files → index for one directory under `originals/`: an original is an orphan unless the
    /// index has its identifier at exactly its path, a motion clip unless its identifier is a
    /// Live Photo whose still is beside it.
    private func checkOriginalsDirectory(
        _ directory: String, files: [String], pageSize: Int, into report: inout FsckReport
    ) throws {
        var originals: [(id: String, path: String)] = []
        var motions: [(id: String, path: String)] = []
        for name in files {
            let path = directory + "/" + name
            switch OriginalsEntry(name) {
            case .temp: report.tempFiles.append(path)
            case .recording: report.recordings.append(path)
            case .motion(let id): motions.append((id, path))
            case .original(let id): originals.append((id, path))
            case .foreign: report.orphanFiles.append(path)
            }
        }
        let ids = Array(Set(originals.map(\.id) + motions.map(\.id)))
        var indexed: [String: (path: String, live: Bool)] = [:]
        for start in stride(from: 0, to: ids.count, by: pageSize) {
            let chunk = Array(ids[start..<min(ids.count, start + pageSize)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            try read { db in
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT id, path, media_type FROM asset WHERE id IN (\(marks))",
                    arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    indexed[row[0]] = (row[1], (row[2] as String) == MediaType.live.rawValue)
                }
            }
        }
        for original in originals where indexed[original.id]?.path != original.path {
            report.orphanFiles.append(original.path)
        }
        for motion in motions {
            let still = indexed[motion.id]
            if still?.live != true || still.map({ LibraryLayout.motionPath(ofStill: $0.path) }) != motion.path
            {
                report.orphanFiles.append(motion.path)
            }
        }
    }

    /// Index → files, a page of rows at a time: each asset's original (and a Live Photo's
    /// motion clip) must be a file at its path; with `verifyChecksums` its size and CRC-32
    /// must match the index.
    private func checkIndexedFiles(verifyChecksums: Bool, pageSize: Int, into report: inout FsckReport) throws
    {
        var after = ""
        while true {
            let page = try read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, path, file_size, checksum, media_type FROM asset
                        WHERE id > ? ORDER BY id LIMIT ?
                        """, arguments: [after, pageSize])
            }
            guard let last = page.last else { return }
            after = last[0]
            report.assetCount += page.count
            for row in page {
                let id: String = row[0], path: String = row[1], size: Int64 = row[2], sum: String = row[3]
                let media: String = row[4]
                let file = layout.absolute(path)
                let motionMissing =
                    media == MediaType.live.rawValue
                    && !POSIXFiles.isRegularFile(layout.absolute(LibraryLayout.motionPath(ofStill: path)))
                guard POSIXFiles.isRegularFile(file) else {
                    report.missingFiles.append(id)
                    continue
                }
                if motionMissing { report.missingFiles.append(id) }
                // Read a piece at a time: a clip can be far larger than memory.
                guard verifyChecksums, let actual = POSIXFiles.fileSize(file),
                    let checksum = try? Checksum.string(ofFile: file)
                else { continue }
                if actual != size || checksum != sum { report.checksumMismatches.append(id) }
            }
        }
    }

    /// Every rendered edit the index names must exist, a page of edits at a time.
    private func checkRenders(pageSize: Int, into report: inout FsckReport) throws {
        var after = ""
        while true {
            let page = try read { db in
                try Row.fetchAll(
                    db,
                    sql:
                        "SELECT asset_id, render_path FROM edit WHERE asset_id > ? ORDER BY asset_id LIMIT ?",
                    arguments: [after, pageSize])
            }
            guard let last = page.last else { return }
            after = last[0]
            for row in page where !POSIXFiles.exists(layout.absolute(row[1])) {
                report.missingRenders.append(row[0])
            }
        }
    }
}
