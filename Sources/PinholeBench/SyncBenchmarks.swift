// Sync calls per change (capture, add, import, edit, delete, album), counted through the POSIX layer's counters.

import PinholeCore
import PinholeImaging
import PinholeLibrary
import PinholeSystem
import SystemPackage

/// Counts the `fsync`/`fdatasync` calls each kind of library change costs, through
/// `SyncCount` (Pinhole's own syncs and SQLite's, by its counting VFS), against what the
/// durability needs: the hand-written reference makes three for a new photo (its data, its
/// name in the directory, one commit). On a Pi's SD card one sync costs milliseconds to tens
/// of milliseconds, so this count, not the time here, is what a burst or timelapse pays.
enum SyncBenchmarks {
    /// Runs the counts and prints one line each.
    static func run() {
        do { try measure() } catch { print("syncs: failed: \(error)") }
    }

    private static func measure(photos: Int = 64) throws {
        let root = LibraryBench.makeTemporaryDirectory()
        defer { LibraryBench.removeTree(root) }
        let clock = LibraryBench.BenchClock()
        let library = try PhotoLibrary.open(at: FilePath(root + "/library"), now: clock.now)
        let jpeg = try BenchJPEG.small()
        let metadata = BenchJPEG.metadata()
        // Warm: the day's directory and the database's log exist, as on a camera in use.
        _ = try library.add(jpeg: jpeg, metadata: metadata)

        let (captured, capture) = try SyncCount.counting {
            try (0..<photos).map { _ in
                try library.add(
                    try library.writeOriginal(metadata: metadata) { sink in
                        try jpeg.withUnsafeBytes { try sink.write($0) }
                    })
            }
        }
        report("capture (written while encoded, then indexed)", capture, per: photos, needs: 3)
        let (_, add) = try SyncCount.counting {
            for _ in 0..<photos { _ = try library.add(jpeg: jpeg, metadata: metadata) }
        }
        report("add of a whole JPEG", add, per: photos, needs: 3)

        let folder = root + "/import"
        LibraryBench.makeDirectory(folder)
        for index in 0..<photos {
            let photo = try BenchJPEG.small(seed: index + 1)
            try LibraryBench.rawWrite(photo, to: folder + "/\(index).jpg")
        }
        let (imported, importing) = try SyncCount.counting { try library.importFolder(FilePath(folder)) }
        guard imported.imported.count == photos else {
            throw LibraryBench.BenchFailure("imported \(imported.imported.count) of \(photos)")
        }
        report(
            "import (batches of 32)", importing, per: photos,
            needs: 2, needsText: "2 + one commit per 32")

        let adjustment = AdjustmentData(formatIdentifier: "bench", formatVersion: "1", data: [1])
        let edited = Array(captured.prefix(16))
        let (_, firstEdits) = try SyncCount.counting {
            for asset in edited {
                try library.saveEdit(of: asset.id, adjustment: adjustment, renderedJPEG: jpeg)
            }
        }
        report("first edit of a photo", firstEdits, per: edited.count, needs: 4)
        let (_, reEdits) = try SyncCount.counting {
            for asset in edited {
                try library.saveEdit(of: asset.id, adjustment: adjustment, renderedJPEG: jpeg)
            }
        }
        report("edit again", reEdits, per: edited.count, needs: 3)

        let deleted = Array(captured.suffix(16))
        let (_, deletes) = try SyncCount.counting {
            for asset in deleted { try library.delete([asset.id]) }
        }
        report("delete (to Recently Deleted)", deletes, per: deleted.count, needs: 1)
        let (_, purges) = try SyncCount.counting {
            for asset in deleted { try library.purge([asset.id]) }
        }
        report(
            "purge (file removed for good)", purges, per: deleted.count, needs: 3,
            needsText: "3: the move to .purging/ in both directories, one commit")
        let album = try library.performChanges { $0.createAlbum(title: "Bench") }.createdAlbumIDs[0]
        let (_, albums) = try SyncCount.counting {
            for asset in edited { _ = try library.performChanges { $0.addAssets([asset.id], to: album) } }
        }
        report("album change", albums, per: edited.count, needs: 1)
    }

    /// One line: syncs per change, by kind, against what the durability needs.
    private static func report(
        _ name: String, _ syncs: SyncCount, per count: Int, needs: Int, needsText: String? = nil
    ) {
        let each = Double(syncs.total) / Double(max(1, count))
        let kinds = SyncCount.Kind.allCases.filter { syncs[$0] != 0 }.map {
            "\($0.name) \(rounded(Double(syncs[$0]) / Double(max(1, count))))"
        }
        print(
            "syncs: \(name): \(rounded(each)) per change (\(kinds.joined(separator: ", "))) over \(count); "
                + "the durability needs \(needsText ?? String(needs))")
    }

    private static func rounded(_ value: Double) -> String { String((value * 100).rounded() / 100) }
}
