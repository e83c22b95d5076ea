// Small state files written atomically and durably: temporary file, fsync, rename, directory fsync.

#if canImport(Glibc)
    import Glibc
#endif

/// Writes and removes small state files so that a crash or power loss leaves either the old
/// or the new content, never a torn file.
public enum DurableFile {
    /// Why a write failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What was being done, on which path.
        public var what: String
        /// The errno.
        public var code: Int32
        /// What failed, with the system's reason.
        public var description: String { "\(what): \(String(cString: strerror(code)))" }
    }

    /// Replaces `path` with `bytes`: writes `path.tmp`, fsyncs it, renames it over `path` and
    /// fsyncs the directory.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(what: "cannot create \(temporary)", code: errno) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlink(temporary)
                throw Failure(what: "cannot write \(temporary)", code: code)
            }
            offset += written
        }
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            unlink(temporary)
            throw Failure(what: "cannot flush \(temporary)", code: code)
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(what: "cannot rename \(temporary) to \(path)", code: code)
        }
        syncDirectory(of: path)
    }

    /// Removes `path` (absent is fine) and fsyncs its directory.
    public static func remove(_ path: String) {
        unlink(path + ".tmp")
        if unlink(path) == 0 { syncDirectory(of: path) }
    }

    private static func syncDirectory(of path: String) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let fd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
