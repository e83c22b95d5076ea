// Durable and atomic file writes and renames: temporary file, fsync, rename, directory fsync.

import CSystemCalls
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes that survive power loss (or at least never leave a partial file under the final
/// name), and renames that never replace what they must not. Errors are `SystemFailure`s.
public enum DurableFiles {
    /// Writes `bytes` to `path` durably: a new temporary file next to it
    /// (`.<name>.<random>.tmp`, `open(O_CREAT | O_EXCL)`), `write`, `fsync`, a rename onto
    /// `path` (with `replace` false one that fails with EEXIST instead of replacing, see
    /// `rename(_:to:replace:)`), on vfat and exFAT only `fsync` of the file again (they write
    /// the renamed entry's size only with the inode; `needsSyncAfterRename`), `close`, then
    /// `fsync` of the directory. Two sync calls on ext4: the file's data, then its name.
    ///
    /// Afterwards the complete file is under `path`; after a crash at most a `.….tmp` file is
    /// left next to it (recovery passes remove those). The descriptor is closed and the
    /// temporary file removed on every failure.
    public static func write(_ bytes: [UInt8], to path: FilePath, replace: Bool = false) throws {
        try write(to: path, replace: replace) { write in try bytes.withUnsafeBytes { try write($0) } }
    }

    /// Writes what `produce` hands its writer, piece by piece, to `path` durably, the way
    /// `write(_:to:replace:)` does (temporary file, `fsync`, rename, directory `fsync`), so a
    /// file larger than memory (a clip) is never held whole. What `produce` throws removes the
    /// temporary file and is rethrown.
    public static func write(
        to path: FilePath, replace: Bool = false,
        producing produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let temp = temporaryPath(for: path)
        let fd = try naming("open", temp) {
            try FileDescriptor.open(
                temp, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        }
        try naming("close", path) {
            try fd.closeAfter {
                do {
                    try produce { piece in try naming("write", temp) { _ = try fd.writeAll(piece) } }
                    try naming("fsync", temp) { try fd.sync() }
                    try rename(temp, to: path, replace: replace)
                } catch {
                    _ = unlink(temp.string)
                    throw error
                }
                if fd.needsSyncAfterRename { try naming("fsync", path) { try fd.sync() } }
            }
        }
        try syncDirectory(parentDirectory(of: path))
    }

    /// Writes `bytes` to `path` atomically without fsync (for disposable caches): a new
    /// temporary file renamed onto `path`, so readers never see a partial file.
    public static func writeAtomically(_ bytes: [UInt8], to path: FilePath) throws {
        let temp = temporaryPath(for: path)
        let fd = try naming("open", temp) {
            try FileDescriptor.open(
                temp, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        }
        do {
            try naming("close", temp) {
                try fd.closeAfter { try naming("write", temp) { _ = try fd.writeAll(bytes) } }
            }
            try rename(temp, to: path, replace: true)
        } catch {
            _ = unlink(temp.string)
            throw error
        }
    }

    /// Renames `from` to `to`. With `replace` false the rename fails with EEXIST when `to`
    /// exists, atomically (`renameat2(RENAME_NOREPLACE)`); where the file system cannot do
    /// that (EINVAL, ENOSYS), `link` then `unlink` (equally atomic), and where it has no hard
    /// links either, a check for `to` followed by `rename` (racy, the best left).
    public static func rename(_ from: FilePath, to: FilePath, replace: Bool) throws {
        if replace {
            try naming("rename", from) { try retryingInterrupts { systemRename(from.string, to.string) } }
            return
        }
        do {
            try retryingInterrupts { pinhole_rename_noreplace(from.string, to.string) }
            return
        } catch let code where code == .invalidArgument || code == .noFunction {
            // The file system or kernel has no RENAME_NOREPLACE: fall back below.
        } catch {
            throw SystemFailure("rename", to, error)
        }
        do {
            try retryingInterrupts { link(from.string, to.string) }
            try retryingInterrupts { unlink(from.string) }
            return
        } catch let code where code == .notPermitted || code == .notSupported {
            // No hard links (vfat): check, then rename.
        } catch {
            throw SystemFailure("rename", to, error)
        }
        var info = stat()
        if lstat(to.string, &info) == 0 { throw SystemFailure("rename", to, .fileExists) }
        try naming("rename", from) { try retryingInterrupts { systemRename(from.string, to.string) } }
    }

    /// Removes `path` durably: `unlink`, then `fsync` of its directory. A missing file is not
    /// an error (and syncs nothing).
    public static func remove(_ path: FilePath) throws {
        do {
            try retryingInterrupts { unlink(path.string) }
        } catch let code where code == .noSuchFileOrDirectory {
            return
        } catch {
            throw SystemFailure("unlink", path, error)
        }
        try syncDirectory(parentDirectory(of: path))
    }

    /// `fsync` of a directory, making renames, creations and unlinks in it durable.
    public static func syncDirectory(_ path: FilePath) throws {
        let fd = try naming("open", path) {
            try FileDescriptor.open(path, .readOnly, options: [.directory, .closeOnExec])
        }
        try naming("close", path) {
            try fd.closeAfter { try naming("fsync", path) { try fd.sync(counting: .directory) } }
        }
    }

    /// A new temporary name for writing `path`: `.<name>.<random>.tmp` in the same directory.
    public static func temporaryPath(for path: FilePath) -> FilePath {
        let name = path.lastComponent?.string ?? ""
        let temporary = "." + name + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
        let parent = path.removingLastComponent()
        return parent.isEmpty ? FilePath(temporary) : parent.appending(temporary)
    }

    /// The directory holding `path` ("." for a bare name; "/" stays "/").
    public static func parentDirectory(of path: FilePath) -> FilePath {
        if path.components.isEmpty { return path.isEmpty ? "." : path }
        let parent = path.removingLastComponent()
        return parent.isEmpty ? "." : parent
    }
}

/// `rename(2)`, named apart from `DurableFiles.rename`.
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
