// The open-time recovery pass and the read-only consistency check (fsck).

import GRDB
import PinholeCore

extension PhotoLibrary {
    /// Reconciles index and files, recording what it did in `report`.
    func recover(into report: inout RecoveryReport) throws {
        var scan: DiskScan
        do {
            scan = try LibraryScanner.scan(layout)
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
        let indexed = try indexedPaths()

        for relative in scan.tempFiles {
            try? POSIXFiles.remove(layout.absolute(relative))
            report.removedTempFiles.append(relative)
        }

        // Interrupted permanent deletions: the index decides whether the photo stays.
        for (id, relative) in scan.purging.sorted(by: { $0.key < $1.key }) {
            if let home = indexed[id] {
                try? ensureDirectory(POSIXFiles.parentDirectory(of: layout.absolute(home)))
                if (try? POSIXFiles.moveDurably(layout.absolute(relative), to: layout.absolute(home))) != nil {
                    scan.originals[id] = home
                    report.restoredPurges.append(id)
                }
            } else {
                try? POSIXFiles.remove(layout.absolute(relative))
                report.completedPurges.append(id)
            }
        }

        // Originals without an index entry: adopt them if they are whole JPEGs.
        var adopted: [Asset] = []
        for (id, relative) in scan.originals.sorted(by: { $0.key < $1.key }) where indexed[id] != relative {
            if indexed[id] == nil, let asset = adoptable(id: id, relative: relative) {
                adopted.append(asset)
            } else {
                report.quarantinedFiles.append(relative)
                quarantine(relative)
            }
        }
        for relative in scan.foreignFiles {
            report.quarantinedFiles.append(relative)
            quarantine(relative)
        }
        if !adopted.isEmpty {
            _ = try write { db, _ in
                for asset in adopted { try db.execute(sql: Asset.insertSQL, arguments: asset.insertArguments) }
            }
            report.adoptedAssets = adopted.map(\.id)
        }

        report.missingFiles = indexed.filter { scan.originals[$0.key] != $0.value }.map(\.key).sorted()
        try removeStaleRenders(scan.renders)
        report.expiredPurges = try purgeExpired()
        try refreshStatistics(assetCount: indexed.count + adopted.count)
    }

    /// Runs ANALYZE when the planner's statistics are missing or the library grew or shrank
    /// more than twofold since, so queries pick the right index (favorites, camera, …) at scale.
    private func refreshStatistics(assetCount: Int) throws {
        guard assetCount >= 1000 else { return }
        let recorded = try read { db -> Int? in
            guard try db.tableExists("sqlite_stat1") else { return nil }
            let stat = try String.fetchOne(db, sql: "SELECT stat FROM sqlite_stat1 WHERE tbl = 'asset' LIMIT 1")
            return stat.flatMap { $0.split(separator: " ").first.flatMap { Int($0) } }
        }
        if let recorded, assetCount <= recorded * 2, assetCount * 2 >= recorded { return }
        _ = try write { db, _ in try db.execute(sql: "ANALYZE") }
    }

    /// Identifier → relative path of every indexed asset.
    func indexedPaths() throws -> [String: String] {
        try read { db in
            var result: [String: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, path FROM asset")
            while let row = try rows.next() { result[row[0]] = row[1] }
            return result
        }
    }

    /// The record for an unindexed original, or nil when it is not a complete JPEG.
    private func adoptable(id: String, relative: String) -> Asset? {
        let absolute = layout.absolute(relative)
        guard let bytes = try? POSIXFiles.read(absolute),
              let metadata = try? OriginalReader.metadata(of: bytes, path: relative) else { return nil }
        let added = Identifier.time(of: id) ?? now()
        return Asset(id: id, path: relative, metadata: metadata, added: added,
                     fileSize: Int64(bytes.count), checksum: Checksum.string(for: bytes))
    }

    /// Moves a library-relative file under `quarantine/`, keeping its path in the name.
    private func quarantine(_ relative: String) {
        let flat = relative.split(separator: "/").joined(separator: "_")
        var target = layout.quarantine + "/" + flat
        var suffix = 1
        while POSIXFiles.exists(target) {
            target = layout.quarantine + "/\(suffix)-" + flat
            suffix += 1
        }
        try? POSIXFiles.moveDurably(layout.absolute(relative), to: target)
    }

    /// Removes rendered edits that no edit record refers to (derived files, safe to drop).
    private func removeStaleRenders(_ renders: [String: [String]]) throws {
        guard !renders.isEmpty else { return }
        let current = try read { db in
            Set(try String.fetchAll(db, sql: "SELECT render_path FROM edit"))
        }
        for (_, paths) in renders {
            for path in paths where !current.contains(path) {
                try? POSIXFiles.remove(layout.absolute(path))
                POSIXFiles.removeEmptyDirectory(POSIXFiles.parentDirectory(of: layout.absolute(path)))
            }
        }
    }

    /// Checks index and files without changing anything. With `verifyChecksums`, every
    /// original is read and its size and CRC-32 compared with the index (slow on big libraries).
    public func fsck(verifyChecksums: Bool) throws -> FsckReport {
        var report = FsckReport()
        let scan: DiskScan
        do {
            scan = try LibraryScanner.scan(layout)
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
        let indexed = try indexedPaths()
        report.assetCount = indexed.count
        report.databaseProblems = try read { db in
            try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
        }
        report.tempFiles = scan.tempFiles
        report.orphanFiles = (scan.originals.filter { indexed[$0.key] != $0.value }.map(\.value)
            + scan.foreignFiles).sorted()
        report.missingFiles = indexed.filter { scan.originals[$0.key] != $0.value }.map(\.key).sorted()
        report.pendingPurges = scan.purging.keys.sorted()
        report.quarantinedFiles = scan.quarantined
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
                guard scan.originals[id] == path, let bytes = try? POSIXFiles.read(layout.absolute(path)) else { continue }
                if Int64(bytes.count) != size || Checksum.string(for: bytes) != sum { report.checksumMismatches.append(id) }
            }
        }
        return report
    }

    /// `fsck()` without checksum verification (the form the appliance calls).
    public func fsck() throws -> FsckReport { try fsck(verifyChecksums: false) }
}
