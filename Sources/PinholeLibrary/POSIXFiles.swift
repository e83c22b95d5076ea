// The only place the library calls POSIX file APIs: durable writes, directory syncs, listing.

import PinholeSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed POSIX call: which operation, on which path, and its `Errno`.
typealias POSIXFailure = SystemFailure

/// The library's file operations, on the one POSIX layer (PinholeSystem, swift-system): EINTR
/// is retried there and nowhere else, and never for `close`.
enum POSIXFiles {
    /// Writes `bytes` to `path` durably (`DurableFiles.write`): a new temporary file next to
    /// it, `fsync`, a rename onto the final name that fails with EEXIST when `replace` is
    /// false and `path` exists, `fsync` again on vfat and exFAT only, then `fsync` of the
    /// directory: two sync calls on ext4. Either the
    /// complete file exists under `path` afterwards or (after a crash) at most a `.….tmp` file
    /// does, which the recovery pass removes.
    static func writeDurably(_ bytes: [UInt8], to path: String, replace: Bool = false) throws {
        try DurableFiles.write(bytes, to: FilePath(path), replace: replace)
    }

    /// Writes `bytes` to `path` atomically but without fsync (for disposable caches): a
    /// uniquely named temporary file renamed onto `path`, so readers never see a partial file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try DurableFiles.writeAtomically(bytes, to: FilePath(path))
    }

    /// `fsync` on a directory, making renames and unlinks in it durable.
    static func syncDirectory(_ path: String) throws {
        try DurableFiles.syncDirectory(FilePath(path))
    }

    /// Creates `path` and any missing parents (mode 0755), syncing each parent whose entries
    /// changed so the new directories survive power loss.
    static func makeDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        let parent = parentDirectory(of: path)
        if parent != path && !parent.isEmpty { try makeDirectories(parent) }
        do {
            try retryingInterrupts { mkdir(path, 0o755) }
        } catch let code where code == .fileExists {
            // Made meanwhile (another process): as good as made here.
        } catch {
            throw POSIXFailure("mkdir", FilePath(path), error)
        }
        if !parent.isEmpty { try syncDirectory(parent) }
    }

    /// Renames `from` to `to` — failing with EEXIST rather than replacing a file already
    /// there (`renameat2(RENAME_NOREPLACE)`) — and syncs both directories.
    static func moveDurably(_ from: String, to: String) throws {
        try DurableFiles.rename(FilePath(from), to: FilePath(to), replace: false)
        let a = parentDirectory(of: from), b = parentDirectory(of: to)
        try syncDirectory(b)
        if a != b { try syncDirectory(a) }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws {
        do {
            try retryingInterrupts { unlink(path) }
        } catch let code where code == .noSuchFileOrDirectory {
            return
        } catch {
            throw POSIXFailure("unlink", FilePath(path), error)
        }
    }

    /// Removes an empty directory; ignores failures (not empty, missing).
    static func removeEmptyDirectory(_ path: String) {
        _ = rmdir(path)
    }

    /// Reads a whole file (one allocation of its size, then reads until end of file).
    static func read(_ path: String) throws -> [UInt8] {
        let fd = try naming("open", FilePath(path)) {
            try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        }
        return try naming("read", FilePath(path)) {
            try fd.closeAfter {
                var info = stat()
                let expected = fstat(fd.rawValue, &info) == 0 ? max(0, Int(info.st_size)) : 0
                return try fd.readToEnd(sizeHint: expected)
            }
        }
    }

    /// Reads a file that must be a regular file of at most `limit` bytes, for input from
    /// outside the library (a stick): opened with O_NOFOLLOW (a symbolic link is refused, so a
    /// link to /dev/zero reads nothing) and O_NONBLOCK (a FIFO does not block the open), then
    /// `fstat` on the open descriptor must say regular file and the size at most `limit`;
    /// at most `limit` bytes are read even if the file grows meanwhile.
    static func readRegularFile(_ path: String, limit: Int) throws -> [UInt8] {
        try withRegularFile(path) { fd, info in try readAll(fd, path: path, size: info.st_size, limit: limit)
        }
    }

    /// Reads `fd` (the regular file `path` of `size` bytes, as `fstat` said) from its offset to
    /// its end, refusing more than `limit` bytes (also when it grows meanwhile).
    static func readAll(_ fd: FileDescriptor, path: String, size: off_t, limit: Int) throws -> [UInt8] {
        guard Int(size) <= limit else {
            throw LibraryError.invalidImage(
                path: path,
                reason: "\(size) bytes, more than the \(limit >> 20) MB a photo may have")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try naming("read", FilePath(path)) {
                try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
            }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
            guard bytes.count <= limit else {
                throw LibraryError.invalidImage(
                    path: path,
                    reason: "grew past the \(limit >> 20) MB a photo may have while being read")
            }
        }
    }

    /// Opens `path` for reading as input from outside the library: O_NOFOLLOW (a symbolic link
    /// is refused), O_NONBLOCK (a FIFO does not block the open), then `fstat` on the open
    /// descriptor must say regular file; calls `body` with it and its `stat`, then closes it.
    static func withRegularFile<T>(_ path: String, _ body: (FileDescriptor, stat) throws -> T) throws -> T {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                FilePath(path), .readOnly, options: [.closeOnExec, .noFollow, .nonBlocking])
        } catch let code as Errno where code == .tooManySymbolicLinkLevels {
            throw LibraryError.invalidImage(path: path, reason: "a symbolic link (not followed)")
        } catch let code as Errno {
            throw POSIXFailure("open", FilePath(path), code)
        }
        return try fd.closeAfter {
            var info = stat()
            guard fstat(fd.rawValue, &info) == 0 else {
                throw POSIXFailure("fstat", FilePath(path), currentErrno)
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw LibraryError.invalidImage(
                    path: path, reason: "not a regular file (\(fileKind(info.st_mode)))")
            }
            return try body(fd, info)
        }
    }

    /// A file type in words, for messages.
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "mode \(String(mode & S_IFMT, radix: 8))"
        }
    }

    /// The canonical absolute path (`realpath`: links resolved), or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether anything exists at `path` (without following a final symlink).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a regular file (following a symlink).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` is a directory.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Opens (creating) a lock file and returns its descriptor.
    static func openLockFile(_ path: String) throws -> FileDescriptor {
        try naming("open", FilePath(path)) {
            try FileDescriptor.open(
                FilePath(path), .readWrite, options: [.create, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        }
    }

    /// Takes an exclusive `flock` on `fd` if nobody holds any lock on the file; false otherwise.
    static func tryExclusiveLock(_ fd: FileDescriptor) -> Bool { fd.tryLockExclusively() }

    /// Takes (or converts to) a shared `flock` on `fd`, waiting while another holds it exclusively.
    static func sharedLock(_ fd: FileDescriptor, path: String) throws {
        try naming("flock", FilePath(path)) { try fd.lockShared() }
    }

    /// Closes a descriptor (releasing its locks), once: a failed close is not retried.
    static func closeDescriptor(_ fd: FileDescriptor) { try? fd.close() }

    /// Modification time of `path` in nanoseconds since the epoch, or nil when it does not exist.
    static func modificationTime(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            return Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// The file system's notion of now (CLOCK_REALTIME) in nanoseconds since the epoch, to
    /// compare with modification times (not the library's injected clock).
    static func realtimeNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Size in bytes of the file at `path`, or nil when it does not exist.
    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Entries of a directory (without "." and ".."), each with whether it is a directory.
    static func list(_ path: String, followingLinks: Bool = true) throws -> [(
        name: String, isDirectory: Bool
    )] {
        guard let dir = opendir(path) else {
            throw POSIXFailure("opendir", FilePath(path), currentErrno)
        }
        defer { closedir(dir) }
        var entries: [(String, Bool)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            var isDir = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                let found =
                    followingLinks ? stat(path + "/" + name, &info) : lstat(path + "/" + name, &info)
                isDir = found == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            entries.append((name, isDir))
        }
        return entries
    }

    /// Free bytes available to unprivileged users on the file system holding `path`.
    static func freeBytes(at path: String) -> Int64? {
        try? FileSystemSpace.availableBytes(at: FilePath(path))
    }

    /// The mount point of the file system holding `path` (walks up while the device stays the same).
    static func mountPoint(of path: String) -> String {
        var current = path
        var info = stat()
        guard stat(current, &info) == 0 else { return path }
        let device = info.st_dev
        while current != "/" && !current.isEmpty {
            let parent = parentDirectory(of: current)
            let next = parent.isEmpty ? "/" : parent
            var parentInfo = stat()
            if stat(next, &parentInfo) != 0 || parentInfo.st_dev != device { return current }
            current = next
        }
        return "/"
    }

    /// The directory part of `path` ("" for a bare name, "/" stays "/").
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The absolute form of `path` relative to the working directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return normalized(cwd + "/" + path)
    }

    /// Removes "." components, duplicate and trailing slashes.
    static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }
}
