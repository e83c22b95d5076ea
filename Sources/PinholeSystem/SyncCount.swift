// Counts of fsync/fdatasync calls made by this process, by what they made durable.

import CSystemCalls

/// How many sync calls (`fsync`, `fdatasync`) this process has made, by kind: Pinhole's own
/// (counted by `FileDescriptor.sync` and `DurableFiles`) and SQLite's (counted by the
/// library's counting VFS, `pinhole_sqlite_count_syncs`). Process-wide; subtract two readings
/// to count what happened between them.
public struct SyncCount: Sendable, Hashable, CustomStringConvertible {
    /// What a sync made durable.
    public enum Kind: Int32, Sendable, CaseIterable {
        /// A file Pinhole wrote (an original, a rendered edit, a settings file).
        case file = 0
        /// A directory: a new name, a removed name, a new subdirectory.
        case directory = 1
        /// SQLite's write-ahead log: a commit (synchronous = FULL), or before a checkpoint.
        case sqliteLog = 2
        /// SQLite's database file: a checkpoint copying the log into it.
        case sqliteDatabase = 3
        /// SQLite's other files (a rollback journal).
        case sqliteOther = 4

        /// The word used in reports.
        public var name: String {
            switch self {
            case .file: "file"
            case .directory: "directory"
            case .sqliteLog: "sqlite-log"
            case .sqliteDatabase: "sqlite-database"
            case .sqliteOther: "sqlite-other"
            }
        }
    }

    /// Counts indexed by `Kind.rawValue`.
    private var values: [Int]

    /// The counts since the process started.
    public static var now: SyncCount {
        SyncCount(values: Kind.allCases.map { Int(pinhole_sync_count($0.rawValue)) })
    }

    /// Counts by kind (missing kinds are 0).
    public init(counts: [Kind: Int] = [:]) { values = Kind.allCases.map { counts[$0] ?? 0 } }

    private init(values: [Int]) { self.values = values }

    /// The count of one kind.
    public subscript(kind: Kind) -> Int { values[Int(kind.rawValue)] }

    /// All sync calls.
    public var total: Int { values.reduce(0, +) }

    /// What was counted between `earlier` and `self`.
    public static func - (later: SyncCount, earlier: SyncCount) -> SyncCount {
        SyncCount(values: zip(later.values, earlier.values).map { $0 - $1 })
    }

    /// Counts `body`'s sync calls (and any other thread's meanwhile).
    public static func counting<T>(_ body: () throws -> T) rethrows -> (T, SyncCount) {
        let before = SyncCount.now
        let result = try body()
        return (result, SyncCount.now - before)
    }

    /// "3 (file 1, directory 1, sqlite-log 1)": the total and each kind that occurred.
    public var description: String {
        let parts = Kind.allCases.filter { self[$0] != 0 }.map { "\($0.name) \(self[$0])" }
        return parts.isEmpty ? "0" : "\(total) (\(parts.joined(separator: ", ")))"
    }

    /// Counts one sync call of `kind` (the POSIX layer calls this just before each sync).
    static func count(_ kind: Kind) { pinhole_sync_counted(kind.rawValue) }
}
