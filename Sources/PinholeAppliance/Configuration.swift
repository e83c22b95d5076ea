// The appliance's configuration file (/etc/pinhole/pinhole.toml on a device).

import PinholeCore

/// Settings from the configuration file; every key is optional.
public struct Configuration: Sendable, Hashable {
    /// The file it was read from (nil: defaults).
    public var file: String?
    /// `[board] name`: auto, sim, a name under board/, or a path.
    public var board: String?
    /// `[library] path`.
    public var libraryPath: String?
    /// `[capture] quality`, 1…100.
    public var jpegQuality = 93
    /// `[console] device`: stdio or a serial device.
    public var consoleDevice: String?
    /// `[console] baud`.
    public var consoleBaud: Int?

    /// Defaults.
    public init() {}

    /// Parses a configuration file's text.
    public static func parse(_ text: String, file: String) throws -> Configuration {
        let root = try TOMLDocument.parse(text, file: file)
        var configuration = Configuration()
        configuration.file = file
        var reader = TableReader(table: root, file: file, context: "")
        if let table = try reader.table("board") {
            var r = TableReader(table: table, file: file, context: "[board]")
            configuration.board = try r.string("name")
            try r.rejectUnknown()
        }
        if let table = try reader.table("library") {
            var r = TableReader(table: table, file: file, context: "[library]")
            configuration.libraryPath = try r.string("path")
            try r.rejectUnknown()
        }
        if let table = try reader.table("capture") {
            var r = TableReader(table: table, file: file, context: "[capture]")
            configuration.jpegQuality = try r.integer("quality", in: 1...100) ?? 93
            try r.rejectUnknown()
        }
        if let table = try reader.table("console") {
            var r = TableReader(table: table, file: file, context: "[console]")
            configuration.consoleDevice = try r.string("device")
            configuration.consoleBaud = try r.integer("baud", in: 50...4_000_000)
            try r.rejectUnknown()
        }
        try reader.rejectUnknown()
        return configuration
    }

    /// Reads `file`; a missing default file gives the defaults, a missing named file is an error.
    public static func load(file: String?, defaultFile: String = "/etc/pinhole/pinhole.toml") throws -> Configuration {
        let path = file ?? defaultFile
        guard let text = FileSystem.readText(path) else {
            if file == nil { return Configuration() }
            throw ConfigurationError(file: path, line: 0, reason: "cannot read the configuration file: check the path")
        }
        return try parse(text, file: path)
    }
}
