// The read-only consistency check of index and files (`pinhole library fsck`).

import GRDB

extension PhotoLibrary {
    /// Checks index and files without changing anything. With `verifyChecksums`, every
    /// original is read and its size and CRC-32 compared with the index (slow on big libraries).
    public func fsck(verifyChecksums: Bool) throws -> FsckReport {
        var report = FsckReport()
        let scan: DiskScan
        do {
            scan = try LibraryScanner.scan(layout, full: true)
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
        let indexed = try indexedPaths()
        report.assetCount = indexed.count
        report.databaseProblems = try read { db in
            try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
        }
        report.tempFiles = scan.tempFiles
        report.orphanFiles =
            (scan.originals.filter { indexed[$0.key] != $0.value }.map(\.value)
            + scan.foreignFiles).sorted()
        report.missingFiles = indexed.filter { scan.originals[$0.key] != $0.value }.map(\.key).sorted()
        // Live Photos: each motion clip beside its still, and no other.
        let live = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, path FROM asset WHERE media_type = 'live'").map {
                (id: $0[0] as String, motion: LibraryLayout.motionPath(ofStill: $0[1]))
            }
        }
        let motions = Dictionary(uniqueKeysWithValues: live.map { ($0.id, $0.motion) })
        report.orphanFiles =
            (report.orphanFiles + scan.motions.filter { motions[$0.key] != $0.value }.map(\.value))
            .sorted()
        report.missingFiles = Array(
            Set(report.missingFiles + live.filter { scan.motions[$0.id] != $0.motion }.map(\.id))
        ).sorted()
        report.pendingPurges = Array(Set(scan.purging.keys).union(scan.purgingMotions.keys)).sorted()
        report.quarantinedFiles = scan.quarantined
        report.recordings = scan.recordings.values.sorted()
        report.missingRenders = try read { db in
            try Row.fetchAll(db, sql: "SELECT asset_id, render_path FROM edit ORDER BY asset_id")
                .filter { !POSIXFiles.exists(layout.absolute($0[1])) }.map { $0[0] }
        }
        if verifyChecksums {
            let records = try read { db in
                try Row.fetchAll(db, sql: "SELECT id, path, file_size, checksum FROM asset ORDER BY id")
            }
            for row in records {
                let id: String = row[0], path: String = row[1], size: Int64 = row[2], sum: String = row[3]
                // Read a piece at a time: a clip can be far larger than memory.
                let file = layout.absolute(path)
                guard scan.originals[id] == path, let actual = POSIXFiles.fileSize(file),
                    let checksum = try? Checksum.string(ofFile: file)
                else { continue }
                if actual != size || checksum != sum {
                    report.checksumMismatches.append(id)
                }
            }
        }
        return report
    }

    /// `fsck()` without checksum verification (the form the appliance calls).
    public func fsck() throws -> FsckReport { try fsck(verifyChecksums: false) }
}
