// Photo library benchmarks at scale: add, index rebuild, open, queries; ratios against raw SQLite and POSIX.

import GRDB
import PinholeCore
import PinholeImaging
import PinholeSystem
import SystemPackage
@_spi(Benchmarks) import PinholeLibrary

#if canImport(Glibc)
    import Glibc
#endif

/// Benchmarks of the photo library. Every figure is reported with a reference measured in the
/// same run on the same machine (raw SQLite through GRDB, raw POSIX writes), as a ratio.
///
/// `PINHOLE_BENCH_PHOTOS` sets the library size (default 100,000).
enum LibraryBenchmarks {
    /// Runs all library benchmarks and prints one line per figure.
    static func run() throws {
        let photos = Int(String(cString: getenv("PINHOLE_BENCH_PHOTOS") ?? strdup("100000"))) ?? 100_000
        let root = LibraryBench.makeTemporaryDirectory()
        defer { LibraryBench.removeTree(root) }
        print("library: \(photos) photos in \(root)")
        let jpeg = try BenchJPEG.small()
        let clock = LibraryBench.BenchClock()

        // 1. Durable adds on an empty library vs raw write+fsync+rename+dirfsync + one SQLite
        // commit each: rounds of 25, interleaved; the fastest round of each counts (on a
        // shared machine, the round no other process's I/O interrupted), and the sums too.
        let addCount = 200, rounds = 8, perRound = addCount / rounds
        let emptyLibrary = try PhotoLibrary.open(at: FilePath(root + "/empty"), now: clock.now)
        let rawAdder = try RawDurableAdder(root: root + "/raw-add")
        var emptyAdd = Duration.zero, rawAdd = Duration.zero
        var fastestAdd = Duration.seconds(1_000), fastestRaw = Duration.seconds(1_000)
        var addSyncs = SyncCount(), rawSQLiteSyncs = SyncCount()
        for _ in 0..<rounds {
            let (ours, syncs) = try SyncCount.counting {
                try LibraryBench.time {
                    for _ in 0..<perRound {
                        _ = try emptyLibrary.add(jpeg: jpeg, metadata: BenchJPEG.metadata())
                    }
                }
            }
            let (theirs, theirSyncs) = try SyncCount.counting {
                try LibraryBench.time { try rawAdder.add(perRound, jpeg: jpeg) }
            }
            emptyAdd += ours
            rawAdd += theirs
            fastestAdd = min(fastestAdd, ours)
            fastestRaw = min(fastestRaw, theirs)
            addSyncs = addSyncs + syncs
            rawSQLiteSyncs = rawSQLiteSyncs + theirSyncs
        }
        LibraryBench.report(
            "add (durable, empty library), fastest round of \(perRound)", fastestAdd, per: perRound,
            reference: fastestRaw, referenceName: "raw fsync+insert (target <= 1.1×)")
        LibraryBench.report(
            "add (durable, empty library), all \(addCount)", emptyAdd, per: addCount, reference: rawAdd,
            referenceName: "raw fsync+insert")
        // The reference's two fsync calls per photo are its own (not counted); SQLite's are.
        print(
            "library: syncs per add: \(perPhoto(addSyncs.total, addCount)) (\(addSyncs) over \(addCount) adds, "
                + "checkpoints included); the reference: \(perPhoto(2 * addCount + rawSQLiteSyncs.total, addCount)) "
                + "(2 fsync by hand + SQLite's \(rawSQLiteSyncs) over \(addCount))")

        // 2. Index rebuild: `photos` originals on disk, no index; open adopts them all.
        let big = root + "/big"
        let ids = try writeOriginals(count: photos, jpeg: jpeg, root: big)
        var library: PhotoLibrary?
        let rebuild = try LibraryBench.time {
            library = try PhotoLibrary.open(at: FilePath(big), now: clock.now)
        }
        let rawInsert = try measureRawInsert(ids: ids, path: root + "/raw.sqlite")
        LibraryBench.report(
            "open + adopt (index rebuild)", rebuild, per: photos, reference: rawInsert,
            referenceName: "raw SQLite insert of the same rows")
        guard let filled = library, filled.recoveryReport.adoptedAssets.count == photos else {
            throw LibraryBench.BenchFailure(
                "the rebuild adopted \(library?.recoveryReport.adoptedAssets.count ?? 0) of \(photos) photos")
        }
        library = nil

        // 3. Opening a clean library of `photos` (recovery pass included) vs raw open + scan of the ids.
        let firstOpen = try LibraryBench.time {
            library = try PhotoLibrary.open(at: FilePath(big), now: clock.now)
        }
        library = nil
        let open = try LibraryBench.time {
            library = try PhotoLibrary.open(at: FilePath(big), now: clock.now)
        }
        let rawOpen = try LibraryBench.time {
            let queue = try DatabaseQueue(path: big + "/library.sqlite")
            _ = try queue.read { db in try String.fetchAll(db, sql: "SELECT id FROM asset") }
        }
        LibraryBench.report(
            "open (\(photos) photos, first after the rebuild)", firstOpen, per: 1, reference: rawOpen,
            referenceName: "raw open + SELECT id")
        LibraryBench.report(
            "open (\(photos) photos, recovery pass)", open, per: 1, reference: rawOpen,
            referenceName: "raw open + SELECT id")
        guard let lib = library else { return }

        // 4. Queries at scale vs the same SQL through GRDB directly.
        _ = try lib.performChanges { batch in
            batch.setFavorite(Array(ids.prefix(photos / 100)), true)
            let album = batch.createAlbum(title: "Bench")
            batch.addAssets(Array(ids.suffix(1000)), to: album)
        }
        // The reference's own connections, of the kind the library reads through (a pool's
        // read-only readers in WAL mode).
        let raw = try DatabasePool(path: big + "/library.sqlite")
        // Counts are maintained: the reference is the COUNT(*) they replace.
        try compare(
            "count all", runs: 100, raw: raw, library: { try lib.count(.all) },
            reference: { db in
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT COUNT(*) FROM asset WHERE deleted_ns IS NULL AND hidden = 0"))
                    ?? 0
            })
        // Every other reference runs the very SELECT the library runs (its text and arguments)
        // and decodes every column of every row into a plain record (ReferenceAssetRow).
        let newest = AssetQuery.all.sorted(by: .created, ascending: false).limit(100)
        try compare(
            "newest 100", runs: 100, raw: raw, library: { try lib.assets(newest).count },
            reference: records(try lib.selectStatement(for: newest)))
        // Keyset paging: the page after the middle photo costs what the first page costs. The
        // page's SELECT reads one photo more (is there a next page?) and the sort keys.
        let middle = try lib.cursor(after: ids[photos / 2 - 1], in: .all)
        try compare(
            "page 100 after photo \(photos / 2) (keyset)", runs: 100, raw: raw,
            library: {
                let page = try lib.page(.all, after: middle, pageSize: 100)
                return page.assets.count + (page.next == nil ? 0 : 1)
            },
            reference: records(try lib.pageStatement(for: .all, after: middle, pageSize: 100)))
        let favorites = lib.query(for: .favorites)
        try compare(
            "favorites (1%)", runs: 40, raw: raw,
            library: { try lib.assets(lib.query(for: .favorites)).count },
            reference: records(try lib.selectStatement(for: favorites)))
        let album = lib.albumQuery(try lib.albums()[0].id)
        try compare(
            "album of 1000 in order", runs: 40, raw: raw, library: { try lib.assets(album).count },
            reference: records(try lib.selectStatement(for: album)))
        try raw.close()

        // 5. Durable adds into the full library vs into the empty one.
        let fullAdd = try LibraryBench.time {
            for _ in 0..<addCount { _ = try lib.add(jpeg: jpeg, metadata: BenchJPEG.metadata()) }
        }
        LibraryBench.report(
            "add (durable, \(photos)-photo library)", fullAdd, per: addCount, reference: emptyAdd,
            referenceName: "add into an empty library")

        try thumbnails(library: lib)
        try ObservationBenchmark.run(library: lib, ids: ids)

    }

    /// `count` syncs over `photos` photos, per photo with two decimals.
    private static func perPhoto(_ count: Int, _ photos: Int) -> String {
        String((Double(count) / Double(max(1, photos)) * 100).rounded() / 100)
    }

    // MARK: Measurements

    /// Thumbnails of 12 MP photos in the full library: cold (decode-time scaling, resample,
    /// encode, cache write) against a full-size decode and against the bare Thumbnailer;
    /// warm (cache hit) against reading the cached file.
    private static func thumbnails(library: PhotoLibrary) throws {
        let photo = try BenchJPEG.large(width: 4056, height: 3040)
        var metadata = BenchJPEG.metadata()
        metadata.orientation = .right
        let assets = try (0..<8).map { _ in try library.add(jpeg: photo, metadata: metadata) }
        let size = PixelSize(width: 320, height: 240)
        // Three interleaved rounds (cache cleared each time); the fastest of each counts.
        var cold = Duration.seconds(1_000), bare = Duration.seconds(1_000),
            fullDecode = Duration.seconds(1_000)
        for _ in 0..<3 {
            try library.clearThumbnailCache()
            cold = min(
                cold,
                try LibraryBench.time {
                    for asset in assets {
                        _ = try library.thumbnail(of: asset, size: size, mode: .aspectFill)
                    }
                })
            bare = min(
                bare,
                try LibraryBench.time {
                    for _ in assets {
                        _ = try Thumbnailer.render(
                            jpeg: photo, size: size, mode: .aspectFill, orientation: .right)
                    }
                })
            fullDecode = min(
                fullDecode, try LibraryBench.time { for _ in assets { _ = try JPEGDecoder.decode(photo) } })
        }
        LibraryBench.report(
            "thumbnail 320x240 fill of 12 MP, cold", cold, per: assets.count, reference: fullDecode,
            referenceName: "full-size decode alone")
        LibraryBench.report(
            "thumbnail 320x240 fill of 12 MP, cold", cold, per: assets.count, reference: bare,
            referenceName: "bare Thumbnailer.render (library overhead)")
        let warmRounds = 50
        let warm = try LibraryBench.time {
            for _ in 0..<warmRounds {
                for asset in assets { _ = try library.thumbnail(of: asset, size: size, mode: .aspectFill) }
            }
        }
        let files = try assets.map { try library.thumbnail(of: $0, size: size, mode: .aspectFill).file }
        let rawRead = try LibraryBench.time {
            for _ in 0..<warmRounds { for file in files { _ = try LibraryBench.rawRead(file.string) } }
        }
        LibraryBench.report(
            "thumbnail, cached", warm, per: warmRounds * assets.count, reference: rawRead,
            referenceName: "raw read of the cached file")
    }

    /// The same durability by hand: temp file, write, fsync, rename, directory fsync, one
    /// SQLite transaction (WAL, synchronous=FULL) with one row.
    private final class RawDurableAdder {
        let root: String
        let pool: DatabasePool
        var next = 0

        init(root: String) throws {
            self.root = root
            LibraryBench.makeDirectory(root)
            pool = try DatabasePool(path: root + "/raw.sqlite")
            // GRDB sets a pool's writer to NORMAL, which does not sync the log at commit:
            // without this the reference made 2 syncs a photo, not 3 (as the library's did
            // before `make powercut` found it).
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try pool.write { db in
                try db.execute(sql: "CREATE TABLE photo (id TEXT PRIMARY KEY, path TEXT, size INTEGER)")
            }
        }

        func add(_ count: Int, jpeg: [UInt8]) throws {
            for _ in 0..<count {
                let index = next
                next += 1
                let path = root + "/\(index).jpg"
                try LibraryBench.rawDurableWrite(jpeg, to: path, directory: root)
                try pool.write { db in
                    try db.execute(
                        sql: "INSERT INTO photo VALUES (?, ?, ?)", arguments: ["\(index)", path, jpeg.count])
                }
            }
        }
    }

    /// Raw SQLite insert of the same rows the rebuild adopted (same columns, one transaction, no indexes).
    private static func measureRawInsert(ids: [String], path: String) throws -> Duration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE asset (id TEXT PRIMARY KEY, path TEXT, created_ns INTEGER, width INTEGER, height INTEGER,
                                        orientation INTEGER, file_size INTEGER, checksum TEXT)
                    """)
        }
        return try LibraryBench.time {
            try pool.write { db in
                let statement = try db.makeStatement(sql: "INSERT INTO asset VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                for (index, id) in ids.enumerated() {
                    try statement.execute(arguments: [
                        id, "originals/\(id).jpg", index, 64, 48, 1, 1600, "crc32:00000000",
                    ])
                }
            }
        }
    }

    /// The plain GRDB reference for a SELECT of assets: a cached statement of the same text
    /// with the same arguments, every row decoded into a `ReferenceAssetRow`; returns the
    /// number of rows.
    static func records(_ select: (sql: String, arguments: StatementArguments)) -> (Database) throws
        -> Int
    {
        { db in
            let statement = try db.cachedStatement(sql: select.sql)
            guard
                Array(statement.columnNames.prefix(ReferenceAssetRow.columnNames.count))
                    == ReferenceAssetRow.columnNames
            else {
                throw LibraryBench.BenchFailure(
                    "the reference does not read the asset columns: \(statement.columnNames)")
            }
            return try ReferenceAssetRow.fetchAll(statement, arguments: select.arguments).count
        }
    }

    /// Times a library query against its reference through GRDB on another connection:
    /// `runs` single runs of each, interleaved; the fastest run of each counts (on a shared
    /// machine, the run no other process interrupted). Both return how many rows they read,
    /// which must agree (the same work, not just the same name).
    static func compare(
        _ name: String, runs: Int, raw: DatabasePool, library: () throws -> Int,
        reference: @escaping (Database) throws -> Int
    ) throws {
        // Warm the page caches and statement caches of both, and check they read the same rows.
        let ours = try library()
        let theirs = try raw.read(reference)
        guard ours == theirs else {
            throw LibraryBench.BenchFailure("\(name): the library read \(ours) rows, the reference \(theirs)")
        }
        var libraryTime = Duration.seconds(1_000)
        var referenceTime = Duration.seconds(1_000)
        for _ in 0..<runs {
            libraryTime = min(libraryTime, try LibraryBench.time { _ = try library() })
            referenceTime = min(referenceTime, try LibraryBench.time { _ = try raw.read(reference) })
        }
        LibraryBench.report(
            "query: \(name)", libraryTime, per: 1, reference: referenceTime,
            referenceName: "same SQL through GRDB (fastest of \(runs) runs each)")
    }

    // MARK: Setup

    /// Writes `count` originals (no fsync: this is setup) under date directories; returns their ids.
    private static func writeOriginals(count: Int, jpeg: [UInt8], root: String) throws -> [String] {
        var ids: [String] = []
        ids.reserveCapacity(count)
        var generator = LibraryBench.SplitMix64(seed: 0x5EED)
        let start: Int64 = 1_700_000_000_000  // milliseconds
        var made: Set<String> = []
        for index in 0..<count {
            let millis = start + Int64(index) * 300_000  // one photo every 5 minutes
            let id = LibraryBench.uuid7(millis: millis, random: &generator)
            let date = WallTime(secondsSince1970: millis / 1000).local
            let directory = root + "/originals/\(date.year)/\(twoDigits(date.month))/\(twoDigits(date.day))"
            if made.insert(directory).inserted { LibraryBench.makeDirectory(directory) }
            try LibraryBench.rawWrite(jpeg, to: directory + "/\(id).jpg")
            ids.append(id)
        }
        var parents: Set<String> = [root + "/originals"]
        for directory in made {
            var path = directory
            while path.count > root.count + "/originals".count {
                path = String(path[..<path.lastIndex(of: "/")!])
                parents.insert(path)
            }
        }
        LibraryBench.ageDirectories(Array(made) + Array(parents))
        return ids
    }
}
