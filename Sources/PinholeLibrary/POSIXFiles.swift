// The only place the library calls POSIX file APIs: durable writes, directory syncs, listing.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed POSIX call: which operation, on which path, and `errno`.
struct POSIXFailure: Error, CustomStringConvertible {
    /// The C function that failed.
    var operation: String
    /// The path it was working on.
    var path: String
    /// The `errno` it set.
    var code: Int32

    /// True for "no space left" and "quota exceeded".
    var isStorageFull: Bool { code == ENOSPC || code == EDQUOT }

    var description: String {
        "\(operation)(\(path)) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// `read(2)`, named so that it does not clash with `POSIXFiles.read`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// `close(2)`, named so that it does not clash with `POSIXFiles` members.
@discardableResult
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }

/// Thin wrappers over POSIX file calls; EINTR is retried here and nowhere else.
enum POSIXFiles {
    /// Retries `body` while it fails with EINTR; throws a `POSIXFailure` on any other failure.
    @discardableResult
    private static func check<T: BinaryInteger>(_ operation: String, _ path: String, _ body: () -> T) throws
        -> T
    {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw POSIXFailure(operation: operation, path: path, code: code)
        }
    }

    /// Writes `bytes` to `path` durably: a temporary file next to it (`open`, `write`,
    /// `fsync`), `rename` onto the final name, `fsync` of the file again (vfat writes the
    /// renamed entry's size only with the inode), then `fsync` of the directory.
    ///
    /// Either the complete file exists under `path` afterwards or (after a crash) at most a
    /// `.tmp` file does, which the recovery pass removes. Fails if `path` already exists
    /// when `replace` is false.
    static func writeDurably(_ bytes: [UInt8], to path: String, replace: Bool = false) throws {
        let directory = parentDirectory(of: path)
        let temp = temporaryPath(for: path)
        let fd = try check("open", temp) { open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        do {
            try bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = try check("write", temp) {
                        write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    }
                    offset += written
                }
            }
            try check("fsync", temp) { fsync(fd) }
            if !replace && exists(path) {
                throw POSIXFailure(operation: "rename", path: path, code: EEXIST)
            }
            try check("rename", temp) { rename(temp, path) }
        } catch {
            _ = close(fd)
            _ = unlink(temp)
            throw error
        }
        // fsync again after the rename: vfat (a USB stick) writes the new name's directory
        // entry with no data (start cluster 0, size 0) and fills it in only when the inode is
        // written, so syncing the directory alone left an answered export empty after a power
        // cut (found by `make powercut`). On ext4 this commits the rename's transaction, which
        // the directory sync below would commit anyway.
        do {
            try check("fsync", path) { fsync(fd) }
        } catch {
            _ = close(fd)
            throw error
        }
        try check("close", path) { close(fd) }
        try syncDirectory(directory)
    }

    /// Writes `bytes` to `path` atomically but without fsync (for disposable caches): a
    /// uniquely named temporary file renamed onto `path`, so readers never see a partial file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let directory = parentDirectory(of: path)
        let name = String(path.dropFirst(directory.count + 1))
        let temp =
            directory + "/." + name + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
        let fd = try check("open", temp) { open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        var isOpen = true
        do {
            try bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    offset += try check("write", temp) {
                        write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    }
                }
            }
            isOpen = false
            try check("close", temp) { close(fd) }
            try check("rename", temp) { rename(temp, path) }
        } catch {
            if isOpen { _ = close(fd) }
            _ = unlink(temp)
            throw error
        }
    }

    /// The temporary name used while writing `path`: `.<name>.tmp` in the same directory.
    static func temporaryPath(for path: String) -> String {
        let directory = parentDirectory(of: path)
        let name = String(path.dropFirst(directory.count + 1))
        return directory + "/." + name + ".tmp"
    }

    /// `fsync` on a directory, making renames and unlinks in it durable.
    static func syncDirectory(_ path: String) throws {
        let fd = try check("open", path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { _ = close(fd) }
        try check("fsync", path) { fsync(fd) }
    }

    /// Creates `path` and any missing parents (mode 0755), syncing each parent whose entries
    /// changed so the new directories survive power loss.
    static func makeDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        let parent = parentDirectory(of: path)
        if parent != path && !parent.isEmpty { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw POSIXFailure(operation: "mkdir", path: path, code: errno)
        }
        if !parent.isEmpty { try syncDirectory(parent) }
    }

    /// Renames `from` to `to` and syncs both directories.
    static func moveDurably(_ from: String, to: String) throws {
        try check("rename", from) { rename(from, to) }
        let a = parentDirectory(of: from), b = parentDirectory(of: to)
        try syncDirectory(b)
        if a != b { try syncDirectory(a) }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws {
        if unlink(path) != 0 && errno != ENOENT {
            throw POSIXFailure(operation: "unlink", path: path, code: errno)
        }
    }

    /// Removes an empty directory; ignores failures (not empty, missing).
    static func removeEmptyDirectory(_ path: String) {
        _ = rmdir(path)
    }

    /// Reads a whole file (one allocation of its size, then reads until end of file).
    static func read(_ path: String) throws -> [UInt8] {
        let fd = try check("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { _ = systemClose(fd) }
        var info = stat()
        let expected = fstat(fd, &info) == 0 ? max(0, Int(info.st_size)) : 0
        var result = [UInt8](repeating: 0, count: expected + 1)
        var filled = 0
        while true {
            if filled == result.count {
                result.append(contentsOf: [UInt8](repeating: 0, count: max(65_536, filled)))
            }
            let count = try result.withUnsafeMutableBytes { buffer in
                try check("read", path) {
                    systemRead(fd, buffer.baseAddress! + filled, buffer.count - filled)
                }
            }
            if count == 0 { break }
            filled += count
        }
        result.removeSubrange(filled...)
        return result
    }

    /// Whether anything exists at `path` (without following a final symlink).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a directory.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Opens (creating) a lock file and returns its descriptor.
    static func openLockFile(_ path: String) throws -> Int32 {
        try check("open", path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
    }

    /// Takes an exclusive `flock` on `fd` if nobody holds any lock on the file; false otherwise.
    static func tryExclusiveLock(_ fd: Int32) -> Bool {
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Takes (or converts to) a shared `flock` on `fd`, waiting while another holds it exclusively.
    static func sharedLock(_ fd: Int32, path: String) throws {
        try check("flock", path) { flock(fd, LOCK_SH) }
    }

    /// Closes a descriptor (releasing its locks).
    static func closeDescriptor(_ fd: Int32) { systemClose(fd) }

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
    static func list(_ path: String) throws -> [(name: String, isDirectory: Bool)] {
        guard let dir = opendir(path) else {
            throw POSIXFailure(operation: "opendir", path: path, code: errno)
        }
        defer { closedir(dir) }
        var entries: [(String, Bool)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            var isDir = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) { isDir = isDirectory(path + "/" + name) }
            entries.append((name, isDir))
        }
        return entries
    }

    /// Free bytes available to unprivileged users on the file system holding `path`.
    static func freeBytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
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
