// Small POSIX file helpers for reading configuration and board files (no Foundation).

#if canImport(Glibc)
    import Glibc
#endif

/// Reading files and listing directories.
public enum FileSystem {
    /// The whole file as UTF-8 text, or nil when it cannot be read.
    public static func readText(_ path: String) -> String? {
        guard let bytes = readBytes(path) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The whole file, or nil when it cannot be read.
    public static func readBytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
        }
    }

    /// Whether a path exists.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `path` is a directory (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Entry names of a directory (empty when it cannot be read).
    public static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Bytes available to unprivileged users on the file system holding `path`.
    public static func freeBytes(at path: String) -> Int64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }
}
