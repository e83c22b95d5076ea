// Small POSIX file helpers for reading configuration and board files (no Foundation).

import PinholeSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Reading files and listing directories.
public enum FileSystem {
    /// The whole file as UTF-8 text, or nil when it cannot be read.
    public static func readText(_ path: FilePath) -> String? {
        guard let bytes = readBytes(path) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The whole file as UTF-8 text; nil only when it does not exist (ENOENT). Any other
    /// failure (EACCES after a `chmod 600`, EIO from a failing card, a directory) is thrown:
    /// it must never be taken for "no file".
    public static func readTextIfPresent(_ path: FilePath) throws(Errno) -> String? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch let error as Errno {
            if error == .noSuchFileOrDirectory { return nil }
            throw error
        } catch {
            throw Errno.ioError
        }
        do {
            let bytes = try fd.closeAfter { try fd.readToEnd() }
            return String(decoding: bytes, as: UTF8.self)
        } catch let error as Errno {
            throw error
        } catch {
            throw Errno.ioError
        }
    }

    /// The whole file, or nil when it cannot be read.
    public static func readBytes(_ path: FilePath) -> [UInt8]? {
        guard let fd = try? FileDescriptor.open(path, .readOnly, options: .closeOnExec) else {
            return nil
        }
        return try? fd.closeAfter { try fd.readToEnd() }
    }

    /// Whether a path exists.
    public static func exists(_ path: FilePath) -> Bool {
        access(path.string, F_OK) == 0
    }

    /// Whether `path` is a directory (following symbolic links).
    public static func isDirectory(_ path: FilePath) -> Bool {
        var info = stat()
        return stat(path.string, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Entry names of a directory (empty when it cannot be read).
    public static func list(_ directory: FilePath) -> [String] {
        guard let dir = opendir(directory.string) else { return [] }
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
    public static func freeBytes(at path: FilePath) -> Int64? {
        try? FileSystemSpace.availableBytes(at: path)
    }
}
