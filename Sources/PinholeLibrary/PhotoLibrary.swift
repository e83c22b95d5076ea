// The photo library store: options, opening with the recovery pass, durable adds, database access.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import GRDB
import PinholeCore
import PinholeImaging
import SystemPackage
import Synchronization

/// Tunables of a library.
public struct LibraryOptions: Sendable, Hashable {
    /// Days a deleted photo stays in Recently Deleted before it is purged (at open, or by
    /// `purgeExpired()`).
    public var trashRetentionDays: Int
    /// Days a photo counts as "recently added".
    public var recentlyAddedDays: Int
    /// Free space kept in reserve: a new photo that would leave less is refused with
    /// `LibraryError.storageFull`, so the index stays writable (to delete photos and free
    /// space) when the file system is full.
    public var reservedBytes: Int64
    /// Directories a file written out on request (`library thumbnail --out`) may never land
    /// in, besides the library itself: the configuration folder.
    public var protectedDirectories: [FilePath]
    /// The largest piece of a clip held in memory while the library copies it (an export, a
    /// Motion Photo's video on import): 1 MB. Memory does not grow with the clip.
    public var streamChunkBytes: Int = 1 << 20
    /// Room kept free on the card for a recording's index entry while it records (1 MB): a
    /// clip whose card another program filled past the reserve is still indexed when it ends.
    public var clipIndexRoomBytes: Int64 = 1 << 20

    /// Creates options; defaults: 30 days in Recently Deleted, 30 days recently added, 8 MB reserve.
    public init(
        trashRetentionDays: Int = 30, recentlyAddedDays: Int = 30, reservedBytes: Int64 = 8_000_000,
        protectedDirectories: [FilePath] = []
    ) {
        self.trashRetentionDays = trashRetentionDays
        self.recentlyAddedDays = recentlyAddedDays
        self.reservedBytes = reservedBytes
        self.protectedDirectories = protectedDirectories
    }
}

/// A photo library in a directory: originals on disk, an SQLite index (WAL), albums,
/// queries, change batches and observers.
///
/// Thread-safe: every method may be called from any thread (the capture path adds photos
/// from a worker thread while the console queries). Observers are called on the thread that
/// made the change, after it is committed; they must return quickly.
public final class PhotoLibrary: Sendable {
    let layout: LibraryLayout
    let pool: DatabasePool
    let now: @Sendable () -> WallTime
    /// The library's options.
    public let options: LibraryOptions
    let observers = ObserverRegistry()
    private let report = Mutex(RecoveryReport())
    /// What streamed copies read (`PhotoLibrary+Streaming.swift`).
    let streamed = Mutex(StreamedReads())
    /// Cleanups that failed (`PhotoLibrary+CleanupFailures.swift`).
    let cleanup = CleanupFailures()
    /// The lock file's descriptor, holding a shared `flock` while this library is open.
    private let lockDescriptor: FileDescriptor

    init(
        layout: LibraryLayout, pool: DatabasePool, options: LibraryOptions, lockDescriptor: FileDescriptor,
        now: @escaping @Sendable () -> WallTime
    ) {
        self.layout = layout
        self.pool = pool
        self.options = options
        self.lockDescriptor = lockDescriptor
        self.now = now
    }

    deinit { POSIXFiles.closeDescriptor(lockDescriptor) }

    /// Opens the library in `directory` (creating it if absent) and runs the recovery pass.
    public static func open(at directory: FilePath, now: @escaping @Sendable () -> WallTime) throws
        -> PhotoLibrary
    {
        try open(at: directory, options: LibraryOptions(), now: now)
    }

    /// Opens the library in `directory` with `options` (creating it if absent) and runs the
    /// recovery pass: partial files removed, unindexed originals adopted or quarantined,
    /// missing originals reported, interrupted deletions finished or undone, expired deleted
    /// photos purged. An unusable database is moved to `quarantine/` and the index rebuilt
    /// from the originals; a database from a newer Pinhole is left untouched and refused.
    public static func open(
        at directory: FilePath, options: LibraryOptions,
        now: @escaping @Sendable () -> WallTime
    ) throws -> PhotoLibrary {
        let layout = LibraryLayout(root: directory.string)
        let lock: FileDescriptor
        do {
            for path in layout.requiredDirectories { try POSIXFiles.makeDirectories(path) }
            lock = try POSIXFiles.openLockFile(layout.lockFile)
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
        // Only the first process to open the library repairs it (another process's in-flight
        // write looks like a partial file or an orphan); the others wait for it and share.
        let repairs = POSIXFiles.tryExclusiveLock(lock)
        var library: PhotoLibrary?
        do {
            // Wait while a repairing process holds the lock exclusively.
            if !repairs { try POSIXFiles.sharedLock(lock, path: layout.lockFile) }
            var report = RecoveryReport()
            let pool = try openDatabase(layout, repairs: repairs, report: &report, stamp: now())
            let opened = PhotoLibrary(
                layout: layout, pool: pool, options: options, lockDescriptor: lock, now: now)
            library = opened
            if repairs {
                try opened.recover(into: &report)
                try POSIXFiles.sharedLock(lock, path: layout.lockFile)
            } else {
                report.deferred =
                    "the library is open in another process, which repaired it when it opened it"
            }
            opened.report.withLock { $0 = report }
            return opened
        } catch {
            // Once the library exists, its deinit closes the lock file.
            if library == nil { POSIXFiles.closeDescriptor(lock) }
            throw error
        }
    }

    /// Opens the database; a damaged one is set aside and replaced when this process repairs.
    private static func openDatabase(
        _ layout: LibraryLayout, repairs: Bool, report: inout RecoveryReport,
        stamp: WallTime
    ) throws -> DatabasePool {
        do {
            return try LibraryDatabase.open(layout)
        } catch let error as DatabaseError where LibraryDatabase.isDamaged(error) {
            guard repairs else {
                throw LibraryError.database(
                    reason: "the database is damaged (\(error.message ?? "\(error)")); close the "
                        + "other Pinhole processes using this library and open it again to rebuild it")
            }
            let kept = try LibraryDatabase.moveAside(layout, stamp: stamp)
            report.rebuiltIndex =
                "the database could not be read (\(error.message ?? "\(error)")); "
                + "the damaged copy was kept as \(kept)"
            do {
                return try LibraryDatabase.open(layout)
            } catch {
                throw LibraryError.database(reason: "could not create a new database: \(error)")
            }
        }
    }

    /// The library directory (absolute).
    public var directory: FilePath { FilePath(layout.root) }

    /// What the open-time recovery pass found and did.
    public var recoveryReport: RecoveryReport { report.withLock { $0 } }

    /// Absolute path of an asset's original.
    public func fileURLPath(of asset: Asset) -> FilePath { FilePath(layout.absolute(asset.path)) }

    // MARK: Adding

    /// Durably stores a new original (temporary file, fsync, rename, directory fsync, then the
    /// index entry) and returns its asset. When this returns, the photo survives a crash or
    /// power loss; when it throws, nothing was stored.
    ///
    /// Throws `LibraryError.storageFull` when the file system is full.
    public func add(jpeg: [UInt8], metadata: PhotoMetadata) throws -> Asset {
        let (asset, delivery) = try store(jpeg: jpeg, metadata: metadata) { db, asset, tracker in
            try tracker.willChange(db, assets: [asset.id])
            try asset.insert(db)
        }
        deliver(delivery)
        return asset
    }

    /// Writes the original durably, then runs `index` in a write transaction; removes the file
    /// again if indexing fails. Returns the asset and the observers' change details.
    func store(
        jpeg: [UInt8], metadata: PhotoMetadata,
        index: (Database, Asset, ChangeTracker) throws -> Void
    ) throws -> (Asset, [(UInt64, ChangeDetails)]) {
        let asset = try writeOriginal(jpeg: jpeg, metadata: metadata)
        do {
            let delivery = try write { db, tracker in try index(db, asset, tracker) }
            return (asset, delivery.1)
        } catch {
            discardOriginal(asset)
            throw error
        }
    }

    /// Writes the original of a new asset durably and returns its (not yet indexed) record.
    func writeOriginal(jpeg: [UInt8], metadata: PhotoMetadata, id: String? = nil) throws -> Asset {
        let added = now()
        let id = id ?? Identifier.make(at: added)
        let created = metadata.captureTime ?? added
        let relative = LibraryLayout.originalPath(id: id, created: created)
        let absolute = layout.absolute(relative)
        try checkReserve(adding: Int64(jpeg.count))
        do {
            try writeInDirectory(jpeg, to: absolute, replace: false)
        } catch let failure as POSIXFailure {
            throw LibraryError.from(failure, libraryPath: layout.root)
        }
        return Asset(
            id: id, path: relative, metadata: metadata, added: added,
            fileSize: Int64(jpeg.count), checksum: Checksum.string(for: jpeg))
    }

    /// Removes an original whose indexing failed; one that cannot be removed is reported (the
    /// next open's recovery adopts it: a photo is never lost).
    func discardOriginal(_ asset: Asset) {
        let absolute = layout.absolute(asset.path)
        let consequence = "the next open adopts it into the library"
        guard
            cleaning(
                "remove \(asset.path), whose indexing failed", consequence: consequence,
                {
                    try POSIXFiles.remove(absolute)
                })
        else { return }
        cleaning("sync the removal of \(asset.path), whose indexing failed", consequence: consequence) {
            try POSIXFiles.syncDirectory(POSIXFiles.parentDirectory(of: absolute))
        }
    }

    /// Writes a file durably, creating its directory; retries once if the directory vanished
    /// meanwhile (a concurrent purge removes day directories that become empty).
    func writeInDirectory(_ bytes: [UInt8], to absolute: String, replace: Bool) throws {
        let directory = POSIXFiles.parentDirectory(of: absolute)
        try ensureDirectory(directory)
        do {
            try POSIXFiles.writeDurably(bytes, to: absolute, replace: replace)
        } catch let failure as POSIXFailure where failure.errno == .noSuchFileOrDirectory {
            try ensureDirectory(directory)
            try POSIXFiles.writeDurably(bytes, to: absolute, replace: replace)
        }
    }

    /// Creates `path` and its parents if missing. Not cached: purges, reverts and cache
    /// clearing remove directories that become empty.
    func ensureDirectory(_ path: String) throws {
        try POSIXFiles.makeDirectories(path)
    }

    // MARK: Database access

    /// Runs a read, mapping database errors to `LibraryError`.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch {
            throw mapped(error)
        }
    }

    /// Runs `body` in one write transaction with a change tracker; returns its result and the
    /// observers' change details (deliver them with `deliver` after the call). `body` announces
    /// each asset before changing it (`willChange`); `policy` says what becomes of a change it
    /// did not announce (`ChangeRecording`).
    func write<T>(
        policy: ChangeRecording.Policy = ChangeRecording.defaultPolicy,
        _ body: (Database, ChangeTracker) throws -> T
    ) throws -> (T, [(UInt64, ChangeDetails)]) {
        let tracker = ChangeTracker(observers: observers.snapshot, policy: policy)
        do {
            return try pool.write { db in
                let result = try body(db, tracker)
                return (result, try tracker.finish(db))
            }
        } catch {
            throw mapped(error)
        }
    }

    /// Calls the observers' handlers with their change details (after the commit).
    func deliver(_ delivery: [(UInt64, ChangeDetails)]) {
        guard !delivery.isEmpty else { return }
        let current = Dictionary(
            observers.snapshot.map { ($0.key, $0.observer) }, uniquingKeysWith: { a, _ in a })
        for (key, details) in delivery {
            current[key]?.handler(details)
        }
    }

    /// Converts database and file errors into `LibraryError`.
    func mapped(_ error: Error) -> Error {
        switch error {
        case let error as LibraryError:
            return error
        case let failure as POSIXFailure:
            return LibraryError.from(failure, libraryPath: layout.root)
        case let error as DatabaseError:
            if error.resultCode == .SQLITE_FULL {
                return LibraryError.storageFull(
                    mount: FilePath(POSIXFiles.mountPoint(of: layout.root)),
                    bytesLeft: POSIXFiles.freeBytes(at: layout.root) ?? 0)
            }
            return LibraryError.database(reason: error.message ?? "\(error)")
        default:
            return error
        }
    }
}
