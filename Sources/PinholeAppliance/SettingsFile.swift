// The settings file beside the configuration: read at start, replaced atomically on each change.

#if canImport(Glibc)
    import Glibc
#endif
import PinholeCore

/// Where the saved camera settings live (`camera-settings.toml` beside the configuration file
/// by default). Written to a temporary file in the same directory, flushed, renamed over the
/// old one and the directory flushed, so a power cut leaves the old or the new file, whole.
public struct SettingsFile: Sendable, Hashable {
    /// The file's path.
    public var path: String

    /// A settings file at `path`.
    public init(path: String) { self.path = path }

    /// The settings file beside a configuration file (its directory, `camera-settings.toml`).
    public static func beside(configuration: String) -> SettingsFile {
        let directory =
            configuration.contains("/") ? String(configuration[..<configuration.lastIndex(of: "/")!]) : "."
        return SettingsFile(path: (directory.isEmpty ? "" : directory) + "/camera-settings.toml")
    }

    /// The saved settings; nil when there is no file yet. A file that cannot be read or parsed
    /// is an error naming the file, line and reason.
    public func load() throws -> SavedSettings? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ConfigurationError(
                file: path, line: 0, reason: "cannot read: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw ConfigurationError(
                    file: path, line: 0, reason: "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            guard bytes.count <= 1 << 20 else {
                throw ConfigurationError(file: path, line: 0, reason: "larger than 1 MB: not a settings file")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(file: path, line: 0, reason: "not UTF-8 text")
        }
        return try SavedSettings.parse(text, file: path)
    }

    /// Replaces the file with `settings`, atomically.
    public func save(_ settings: SavedSettings) throws {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        let bytes = Array(settings.toml.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let error = failure("cannot write \(temporary)")
                close(fd)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        guard fsync(fd) == 0 else {
            let error = failure("cannot flush \(temporary)")
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot replace")
            unlink(temporary)
            throw error
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let dirFD = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    private func failure(_ what: String) -> ConfigurationError {
        ConfigurationError(file: path, line: 0, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
