// The errors of the photo library, each saying what failed and what to do.

import SystemPackage

/// An error from the photo library store.
public enum LibraryError: Error, CustomStringConvertible, Equatable {
    /// The file system is full: nothing was saved. `mount` is the file system's mount point;
    /// `reservedBytes` the library's reserve when that refused the write (0: the file system did).
    case storageFull(mount: FilePath, bytesLeft: Int64, reservedBytes: Int64 = 0)
    /// A file operation failed (not for lack of space).
    case fileSystem(operation: String, path: FilePath, reason: String)
    /// The database could not be used.
    case database(reason: String)
    /// The database was written by a newer Pinhole whose schema this version does not know.
    case schemaTooNew(path: FilePath)
    /// No asset with this identifier.
    case assetNotFound(id: String)
    /// No album with this identifier.
    case albumNotFound(id: String)
    /// No folder with this identifier.
    case folderNotFound(id: String)
    /// An operation that needs the asset to be in Recently Deleted (e.g. permanent deletion).
    case notInRecentlyDeleted(id: String)
    /// The asset has no edit to open or revert.
    case notEdited(id: String)
    /// A JPEG could not be read or decoded.
    case invalidImage(path: String, reason: String)
    /// A caller asked for something malformed (bad command, argument or value).
    case invalidRequest(String)
    /// A recorded clip is named on the card but its index entry could not be committed: the
    /// file stays, and the next open adopts it.
    case clipNotIndexed(path: String, reason: String)
    /// The operation was cancelled.
    case cancelled
    /// A write changed photos it did not announce to the observers (`ChangeTracker.willChange`):
    /// a bug in that write path, found by `ChangeRecording` (debug builds; nothing was written).
    case unannouncedChange(ids: [String])

    /// A readable form, for messages and logs.
    public var description: String {
        switch self {
        case let .storageFull(mount, bytesLeft, reservedBytes):
            return "storage full: the photo was not saved; free space on \(mount) ("
                + Self.spaceLeft(bytesLeft, reserved: reservedBytes) + ")"
        case let .fileSystem(operation, path, reason):
            return "library file error: \(operation) \(path) failed: \(reason); check that the library "
                + "directory exists, is writable and that its file system is healthy"
        case let .database(reason):
            return "library database error: \(reason); run `pinhole library fsck` to check the library"
        case let .schemaTooNew(path):
            return "library database \(path) was written by a newer Pinhole; upgrade Pinhole to open it "
                + "(it was left untouched)"
        case let .assetNotFound(id):
            return "no photo with id \(id) in the library; `pinhole library list` shows the ids"
        case let .albumNotFound(id):
            return "no album with id \(id); `pinhole library albums` shows the albums"
        case let .folderNotFound(id):
            return "no folder with id \(id); `pinhole library albums` shows the folders"
        case let .notInRecentlyDeleted(id):
            return "photo \(id) is not in Recently Deleted; delete it first, then purge it"
        case let .notEdited(id):
            return "photo \(id) has no edit; nothing to open or revert"
        case let .invalidImage(path, reason):
            return "\(path) is not a usable JPEG: \(reason)"
        case let .invalidRequest(message):
            return message
        case let .clipNotIndexed(path, reason):
            return "the clip \(path) is kept on the card, but the library could not index it (\(reason));"
                + " the library adopts it when it next opens (restart Pinhole after freeing space)"
        case .cancelled:
            return "cancelled"
        case let .unannouncedChange(ids):
            return "internal error: a library write changed photos it did not announce to its observers ("
                + ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
                + "); nothing was written. Please report this bug"
        }
    }
}

extension LibraryError {
    /// "7.9 MB free; the library keeps 8.0 MB in reserve …" and how deleting frees space (a
    /// refusal by the reserve: the space left alone would not explain it), or "0.0 MB free".
    static func spaceLeft(_ bytesLeft: Int64, reserved: Int64) -> String {
        let free = "\(megabytes(bytesLeft)) MB free"
        guard reserved > 0 else { return free }
        return free
            + "; the library keeps \(megabytes(reserved)) MB in reserve so that it stays usable;"
            + " deleted photos and clips take space until `library purge --all` empties Recently Deleted"
    }

    /// Megabytes with one decimal, rounded down ("7.9").
    static func megabytes(_ bytes: Int64) -> String {
        let tenths = max(0, bytes) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Converts a POSIX failure: ENOSPC/EDQUOT become `storageFull` for `libraryPath`'s file system.
    static func from(_ failure: POSIXFailure, libraryPath: String) -> LibraryError {
        if failure.isStorageFull {
            return .storageFull(
                mount: FilePath(POSIXFiles.mountPoint(of: libraryPath)),
                bytesLeft: POSIXFiles.freeBytes(at: libraryPath) ?? 0)
        }
        return .fileSystem(operation: failure.operation, path: failure.path, reason: failure.description)
    }
}
