// Small POSIX file helpers for reading configuration and board files (no Foundation).

import PinholeSystem
import SystemPackage

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
        guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) else {
            return nil
        }
        return try? fd.closeAfter { try fd.readToEnd() }
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
        try? FileSystemSpace.availableBytes(at: FilePath(path))
    }
}
