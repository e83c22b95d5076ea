// The settings file beside the configuration: read at start, replaced atomically on each change.

import PinholeCore
import PinholeSystem
import SystemPackage

/// Where the saved camera settings live (`camera-settings.toml` beside the configuration file
/// by default). Written to a temporary file in the same directory, flushed, renamed over the
/// old one and the directory flushed, so a power cut leaves the old or the new file, whole.
public struct SettingsFile: Sendable, Hashable {
    /// The file's path.
    public var path: FilePath

    /// A settings file at `path`.
    public init(path: FilePath) { self.path = path }

    /// The settings file beside a configuration file (its directory, `camera-settings.toml`).
    public static func beside(configuration: FilePath) -> SettingsFile {
        SettingsFile(path: DurableFiles.parentDirectory(of: configuration).appending("camera-settings.toml"))
    }

    /// The saved settings; nil when there is no file yet. A file that cannot be read or parsed
    /// is an error naming the file, line and reason.
    public func load() throws -> SavedSettings? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch let code as Errno where code == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw ConfigurationError(file: path, line: 0, reason: "cannot read: \(error)")
        }
        let bytes = try fd.closeAfter { try readAtMost(Self.maximumSize, from: fd) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(file: path, line: 0, reason: "not UTF-8 text")
        }
        return try SavedSettings.parse(text, file: path)
    }

    /// The largest settings file read (a few hundred bytes is usual).
    static let maximumSize = 1 << 20

    /// The whole file, refusing one larger than `limit` before reading past it.
    private func readAtMost(_ limit: Int, from fd: FileDescriptor) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
            } catch {
                throw ConfigurationError(file: path, line: 0, reason: "cannot read: \(error)")
            }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
            guard bytes.count <= limit else {
                throw ConfigurationError(file: path, line: 0, reason: "larger than 1 MB: not a settings file")
            }
        }
    }

    /// Replaces the file with `settings` durably (`DurableFiles.write`: a new temporary file
    /// beside it, fsync, rename over the old one, fsync of the directory), so a power cut
    /// leaves the old or the new file, whole.
    public func save(_ settings: SavedSettings) throws {
        do {
            try DurableFiles.write(Array(settings.toml.utf8), to: path, replace: true)
        } catch let failure as SystemFailure {
            let what =
                switch failure.operation {
                case "open": "cannot create a file next to it"
                case "write": "cannot write"
                case "fsync": "cannot flush"
                default: "cannot replace"
                }
            throw ConfigurationError(file: path, line: 0, reason: "\(what): \(failure.errno)")
        }
    }
}
