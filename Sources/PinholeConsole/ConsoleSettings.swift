// The settings the console can change, saved to the configuration file.

import PinholeAppliance
import PinholeConfiguration
import SystemPackage

/// Settings changed from the console (Settings page, `set KEY VALUE`), each saved at once to
/// the configuration file; `onChange` applies what can change while running.
public final class ConsoleSettings {
    /// One changeable setting.
    struct Key: Sendable {
        var name: String
        var section: String
        var key: String
        var help: String
        var appliesNow: Bool
        var read: @Sendable (Configuration) -> String
        var literal: @Sendable (String) throws -> String
    }

    /// The configuration as last saved.
    public private(set) var configuration: Configuration
    /// The file changes go to.
    public let file: FilePath
    /// Called after each successful change.
    public var onChange: ((Configuration) -> Void)?

    /// Settings over `configuration`, saved to `file`.
    public init(configuration: Configuration, file: FilePath) {
        self.configuration = configuration
        self.file = file
    }

    static let keys: [Key] = [
        Key(
            name: "capture.quality", section: "capture", key: "quality", help: "JPEG quality 1-100",
            appliesNow: false,
            read: { "\($0.jpegQuality)" }, literal: { try integer($0, 1...100) }),
        Key(
            name: "console.colour", section: "console", key: "colour",
            help: "colour on a serial line: on or off",
            appliesNow: true, read: { $0.consoleColour.map { $0 ? "on" : "off" } ?? "auto" }, literal: boolean
        ),
        Key(
            name: "console.unicode", section: "console", key: "unicode",
            help: "viewfinder in half blocks (on) or ASCII shades (off)", appliesNow: true,
            read: { $0.consoleUnicode ? "on" : "off" }, literal: boolean),
        Key(
            name: "console.idle_lock", section: "console", key: "idle_lock",
            help: "seconds without input before the PIN is needed again (10-86400)", appliesNow: true,
            read: { "\($0.consoleIdleLockSeconds)" }, literal: { try integer($0, 10...86_400) }),
        Key(
            name: "console.mode", section: "console", key: "mode", help: "auto, menu or line",
            appliesNow: false,
            read: { $0.consoleMode },
            literal: { value in
                guard ["auto", "menu", "line"].contains(value) else {
                    throw ConsoleError.usage("console.mode is auto, menu or line")
                }
                return Configuration.literal(value)
            }),
        Key(
            name: "console.baud", section: "console", key: "baud", help: "serial speed, e.g. 115200",
            appliesNow: false,
            read: { $0.consoleBaud.map(String.init) ?? "board default" },
            literal: { try integer($0, 1200...921_600) }),
    ]

    /// Every setting with its value, for display.
    public var values: [(key: String, value: String)] {
        Self.keys.map { ($0.name, $0.read(configuration)) } + [
            ("console.pin", configuration.consolePINHash == nil ? "none" : "set")
        ]
    }

    /// What each setting is, for `help`.
    public static var help: [(key: String, help: String)] { keys.map { ($0.name, $0.help) } }

    /// Changes one setting and saves the file; returns the answer text.
    public func set(_ name: String, _ value: String) throws -> String {
        guard let key = Self.keys.first(where: { $0.name == name }) else {
            throw ConsoleError.usage(
                "no setting '\(name)': settings are \(Self.keys.map(\.name).joined(separator: ", "))")
        }
        try save(key.section, key.key, try key.literal(value))
        let note = key.appliesNow ? "" : " (takes effect at the next start)"
        return "ok \(name) \(key.read(configuration)) saved to \(file)\(note)"
    }

    /// Saves a new PIN hash (nil removes the PIN).
    public func setPINHash(_ hash: String?) throws {
        try save("console", "pin_hash", hash.map(Configuration.literal))
    }

    private func save(_ section: String, _ key: String, _ literal: String?) throws {
        do {
            configuration = try Configuration.save(section, key, literal: literal, file: file)
        } catch {
            throw ConsoleError.failed("\(error)")
        }
        onChange?(configuration)
    }

    private static func integer(_ text: String, _ range: ClosedRange<Int>) throws -> String {
        guard let value = Int(text), range.contains(value) else {
            throw ConsoleError.usage(
                "'\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return "\(value)"
    }

    private static func boolean(_ text: String) throws -> String {
        switch text.lowercased() {
        case "on", "true", "yes", "1": return "true"
        case "off", "false", "no", "0": return "false"
        default: throw ConsoleError.usage("'\(text)' is not on or off")
        }
    }
}
