// The appliance's configuration file (/etc/pinhole/pinhole.toml on a device).

import PinholeCore
import SystemPackage

/// Settings from the configuration file; every key is optional.
public struct Configuration: Sendable, Hashable {
    /// The file it was read from (nil: defaults).
    public var file: FilePath?
    /// `[board] name`: auto, sim, a name under board/, or a path.
    public var board: String?
    /// `[library] path`.
    public var libraryPath: FilePath?
    /// `[capture] quality`, 1…100.
    public var jpegQuality = 93
    /// `[capture] frames_in_flight`, 1…64: burst shots encoded and stored at once (each holds
    /// a full-resolution copy and a few bands of its JPEG, about 18 MB at 12 MP); 2 keeps a
    /// burst under 3 frames of memory, and each shot is already encoded on every core.
    public var framesInFlight = 2
    /// `[capture] live`: every photo becomes a Live Photo, paired with the clip from 1.5 s
    /// before to 1.5 s after it (the encoder then keeps a pre-roll ring running).
    public var livePhotos = false
    /// `[console] device`: stdio or a serial device.
    public var consoleDevice: FilePath?
    /// `[console] baud`.
    public var consoleBaud: Int?
    /// `[console] mode`: auto (menu on a terminal, line mode otherwise), menu or line.
    public var consoleMode = "auto"
    /// `[console] colour`: colour on a serial device (stdio follows $TERM and $NO_COLOR).
    public var consoleColour: Bool?
    /// `[console] unicode`: half-block viewfinder (true) or ASCII shades (false).
    public var consoleUnicode = true
    /// `[console] pin_hash`: the console PIN as a crypt(3) hash (`pinhole console hash-pin`);
    /// without one the console is open.
    public var consolePINHash: String?
    /// `[console] idle_lock`: seconds without a key before library and settings lock again.
    public var consoleIdleLockSeconds = 300
    /// `[console] max_pin_failures`: wrong PINs in a row before a lock-out.
    public var consoleMaxPINFailures = 5
    /// `[console] lockout`: seconds of the first lock-out (doubling with each further one).
    public var consoleLockoutSeconds = 60
    /// `[console] quiet_s`: seconds of silence after line noise before Enter, Enter wakes
    /// the console.
    public var consoleQuietSeconds = 3
    /// `[gps]`: gpsd's address and clock setting (off by default).
    public var gps = GPSSettings()
    /// `[web]`: the web gallery and remote (off by default).
    public var web = WebSettings()

    /// `[camera] standby_after`: seconds without use before the camera stops streaming (nil: never).
    public var standbyAfterSeconds: Int?
    /// `[library] when_full`: "stop" (refuse new photos) or "recycle" (make room by removing
    /// the oldest photos that are neither favourites nor in an album).
    public var whenFull = "stop"
    /// `[library] low_storage_mb`: free space under which the status LED warns (default 256).
    public var lowStorageMB = 256
    /// `[video]`: how clips are recorded.
    public var video = VideoSettings()
    /// `[timelapse]`: a timelapse started at boot when none is in progress.
    public var timelapse: TimelapseSettings?

    /// Defaults.
    public init() {}

    /// Parses a configuration file's text.
    public static func parse(_ text: String, file: FilePath) throws -> Configuration {
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
            configuration.libraryPath = try r.string("path").map { FilePath($0) }
            if let policy = try r.string("when_full") {
                guard ["stop", "recycle"].contains(policy) else {
                    throw ConfigurationError(
                        file: file, line: table.line(of: "when_full"),
                        reason: "[library] when_full is '\(policy)': use stop or recycle")
                }
                configuration.whenFull = policy
            }
            configuration.lowStorageMB = try r.integer("low_storage_mb", in: 0...10_000_000) ?? 256
            try r.rejectUnknown()
        }
        if let table = try reader.table("camera") {
            var r = TableReader(table: table, file: file, context: "[camera]")
            let seconds = try r.integer("standby_after", in: 0...86_400)
            configuration.standbyAfterSeconds = seconds == 0 ? nil : seconds
            try r.rejectUnknown()
        }
        if let table = try reader.table("video") {
            configuration.video = try Configuration.parseVideo(table, file: file)
        }
        if let table = try reader.table("timelapse") {
            configuration.timelapse = try TimelapseSettings.parse(table, file: file)
        }
        if let table = try reader.table("capture") {
            var r = TableReader(table: table, file: file, context: "[capture]")
            configuration.jpegQuality = try r.integer("quality", in: 1...100) ?? 93
            configuration.framesInFlight = try r.integer("frames_in_flight", in: 1...64) ?? 2
            configuration.livePhotos = try r.bool("live") ?? false
            try r.rejectUnknown()
        }
        if let table = try reader.table("console") {
            var r = TableReader(table: table, file: file, context: "[console]")
            configuration.consoleDevice = try r.string("device").map { FilePath($0) }
            configuration.consoleBaud = try r.integer("baud", in: 50...4_000_000)
            if let mode = try r.string("mode") {
                guard ["auto", "menu", "line"].contains(mode) else {
                    throw ConfigurationError(
                        file: file, line: table.line(of: "mode"),
                        reason: "[console] mode is '\(mode)': use auto, menu or line")
                }
                configuration.consoleMode = mode
            }
            configuration.consoleColour = try r.bool("colour")
            configuration.consoleUnicode = try r.bool("unicode") ?? true
            if let hash = try r.string("pin_hash") {
                guard hash.hasPrefix("$"), hash.count >= 20, !hash.contains(where: \.isWhitespace) else {
                    throw ConfigurationError(
                        file: file, line: table.line(of: "pin_hash"),
                        reason:
                            "[console] pin_hash is not a crypt(3) hash: set it with `pinhole console hash-pin`"
                    )
                }
                configuration.consolePINHash = hash
            }
            configuration.consoleIdleLockSeconds = try r.integer("idle_lock", in: 10...86_400) ?? 300
            configuration.consoleMaxPINFailures = try r.integer("max_pin_failures", in: 1...100) ?? 5
            configuration.consoleLockoutSeconds = try r.integer("lockout", in: 1...86_400) ?? 60
            configuration.consoleQuietSeconds = try r.integer("quiet_s", in: 1...600) ?? 3
            try r.rejectUnknown()
        }
        if let table = try reader.table("gps") {
            configuration.gps = try GPSSettings.parse(table, file: file)
        }
        if let table = try reader.table("web") {
            configuration.web = try WebSettings.parse(table, file: file)
        }
        try reader.rejectUnknown()
        return configuration
    }

    /// The configuration file on a device.
    public static let defaultFile: FilePath = "/etc/pinhole/pinhole.toml"

    /// Reads `file`; a missing default file gives the defaults, a missing named file is an
    /// error. Only a missing file means "no configuration": a file that is there but cannot be
    /// read (EACCES, EIO) is an error too, never the defaults (which have no PIN, and which the
    /// next `set` would write over the owner's settings).
    public static func load(file: FilePath?, defaultFile: FilePath = Configuration.defaultFile) throws
        -> Configuration
    {
        let path = file ?? defaultFile
        guard let text = try readExisting(path) else {
            if file == nil { return Configuration() }
            throw ConfigurationError(
                file: path, line: 0, reason: "cannot read the configuration file: check the path")
        }
        return try parse(text, file: path)
    }

    /// The text of the configuration file at `path`, nil when there is none; any other read
    /// error is a `ConfigurationError` saying what to do.
    static func readExisting(_ path: FilePath) throws(ConfigurationError) -> String? {
        do {
            return try FileSystem.readTextIfPresent(path)
        } catch {
            throw ConfigurationError(
                file: path, line: 0,
                reason:
                    "cannot read the configuration file (\(error)): Pinhole will not start with defaults "
                    + "(no PIN) nor write over it; make it readable by the service (e.g. chmod 640, group "
                    + "pinhole) or check the card")
        }
    }
}
