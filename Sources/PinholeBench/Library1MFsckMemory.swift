// The library1m step that gives every generated row a real file and measures `library fsck --verify`'s peak memory.

import GRDB
import PinholeCore
import SystemPackage
@_spi(Benchmarks) import PinholeLibrary

#if canImport(Glibc)
    import Glibc
#endif

extension Library1MBenchmarks {
    /// Peak resident memory of `pinhole library fsck --verify` at `count` assets against a
    /// tenth of them (generated the same way), each row given a real original: a hard link
    /// to one small real JPEG (a new source file every 60,000 links, under ext4's limit),
    /// whose size and checksum the rows then carry; Live Photos get a motion clip the same
    /// way. fsck reads and checksums every file. The command must answer clean (status 0),
    /// else the step fails.
    static func fsckMemory(root: String, count: Int, clock: LibraryBench.BenchClock) throws {
        guard let pinhole = pinholeBinary() else {
            print("library1m: fsck --verify memory: not measured (no pinhole binary beside pinhole-bench)")
            return
        }
        let small = root + "-tenth-fsck"
        defer { LibraryBench.removeTree(small) }
        try { _ = try PhotoLibrary.open(at: FilePath(small), now: clock.now) }()
        try generate(count: count / 10, root: small)
        let setup = try LibraryBench.time {
            try giveEveryRowAFile(root: small, clock: clock)
            try giveEveryRowAFile(root: root, clock: clock)
        }
        print(
            "library1m: fsck setup: a hard-linked original for each of \(count + count / 10) rows in "
                + "\(String((LibraryBench.seconds(setup) * 10).rounded() / 10)) s")
        var tenth = 0, full = 0
        let tenthTime = try LibraryBench.time {
            tenth = try peakResidentKB([pinhole, "library", "--library", small, "fsck", "--verify"])
        }
        let fullTime = try LibraryBench.time {
            full = try peakResidentKB([pinhole, "library", "--library", root, "fsck", "--verify"])
        }
        let ratio = Double(full) / Double(max(1, tenth))
        print(
            "library1m: library fsck --verify peak RSS: \(full / 1024) MB at \(count) against \(tenth / 1024) MB at "
                + "\(count / 10) = \(String((ratio * 100).rounded() / 100))× (target <= 1.2×: "
                + "\(ratio <= 1.2 ? "met" : "NOT met")); clean both times, in \(milliseconds(fullTime)) ms and "
                + "\(milliseconds(tenthTime)) ms (every file read and checksummed)")
    }

    /// Links a real original (and a motion clip for a Live Photo) at every row's path that has
    /// none, sets the rows' size and checksum to the file's, and records the day directories
    /// as verified again (their times changed).
    private static func giveEveryRowAFile(root: String, clock: LibraryBench.BenchClock) throws {
        let sources = root + "-sources"
        LibraryBench.makeDirectory(sources)
        defer { LibraryBench.removeTree(sources) }
        // The file, and its size and checksum as the library records them.
        let jpeg = try BenchJPEG.small()
        let scratch = root + "-scratch"
        defer { LibraryBench.removeTree(scratch) }
        let asset = try PhotoLibrary.open(at: FilePath(scratch), now: clock.now).add(
            jpeg: jpeg, metadata: BenchJPEG.metadata())
        var source = ""
        var links = 0
        func nextSource() throws -> String {
            if links % 60_000 == 0 {
                source = sources + "/\(links / 60_000).jpg"
                try LibraryBench.rawWrite(jpeg, to: source)
            }
            links += 1
            return source
        }
        let queue = try DatabaseQueue(path: root + "/library.sqlite")
        try queue.write { db in
            try db.execute(
                sql: "UPDATE asset SET file_size = ?, checksum = ? WHERE checksum = 'crc32:00000000'",
                arguments: [asset.fileSize, asset.checksum])
        }
        var directories: Set<String> = []
        try queue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT path, media_type FROM asset")
            while let row = try rows.next() {
                let path: String = row[0], media: String = row[1]
                var targets = [path]
                if media == MediaType.live.rawValue {
                    targets.append(String(path.dropLast(4)) + ".motion.mp4")
                }
                for target in targets where access(root + "/" + target, F_OK) != 0 {
                    guard link(try nextSource(), root + "/" + target) == 0 else {
                        throw LibraryBench.BenchFailure("link \(target): errno \(errno)")
                    }
                    directories.insert(String(target[..<target.lastIndex(of: "/")!]))
                }
            }
        }
        var parents: Set<String> = [root + "/originals"]
        for directory in directories {
            let parts = directory.split(separator: "/")
            parents.insert(root + "/" + parts[0..<2].joined(separator: "/"))
            parents.insert(root + "/" + parts[0..<3].joined(separator: "/"))
        }
        try recordVerified(
            directories: directories.sorted(), parents: Array(parents), root: root, queue: queue)
        try queue.close()
    }
}
