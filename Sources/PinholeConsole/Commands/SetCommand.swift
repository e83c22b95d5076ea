// `set KEY VALUE`: change one setting and save it (the configuration file, or the camera's).

import PinholeAppliance

/// `set KEY VALUE`.
public struct SetCommand: ConsoleCommand {
    /// The key, e.g. `capture.quality` or `camera.ev`.
    public var key: String
    /// The new value, as typed.
    public var value: String

    /// Creates the command.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// The `set` verb.
    public static let definition = CommandDefinition(
        "set", group: .appliance, access: .pin,
        forms: [
            form("set KEY VALUE", "change a setting and save it (needs the PIN)", "set capture.quality 90")
        ]
    ) { words in
        guard words.count == 2 else {
            throw ConsoleError.usage("usage: set KEY VALUE (settings lists the keys)")
        }
        return SetCommand(key: words[0]!, value: words[1]!)
    }

    /// Every key `set` takes: the configuration file's and the running camera's.
    public static var keys: [String] { ConsoleSettings.help.map(\.key) + LineModeConsole.cameraSettingKeys }

    /// The menu asks for `save` first.
    public var confirmation: ConfirmationQuestion? {
        ConfirmationQuestion("Save \(key) = \(value) to the configuration file?", word: "save")
    }

    /// Camera keys run the direct command they stand for; the others are written to the
    /// configuration file.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        if key.hasPrefix("camera.") {
            return try console.setCameraSetting(key, value, reply: reply)
        }
        guard let store = console.settingsStore else {
            throw ConsoleError.unavailable("settings cannot be saved here: no configuration file")
        }
        reply(.success(try store.set(key, value)))
    }
}
