// `settings [--json]`: the saved settings, the configuration file's and the camera's.

import PinholeAppliance

/// `settings [--json]`.
public struct SettingsCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `settings` verb.
    public static let definition = CommandDefinition(
        "settings", group: .appliance, access: .pin,
        forms: [
            form(
                "settings [--json]", "the settings saved in the configuration file (needs the PIN)",
                "settings")
        ]
    ) { words in
        guard words.count == 0 else { throw ConsoleError.usage("usage: settings [--json]") }
        return SettingsCommand()
    }

    /// Answers with every key and value (camera settings live in the settings file, with or
    /// without a configuration file).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        let values = (console.settingsStore?.values ?? []) + console.cameraSettingValues
        if json {
            reply(.success(jsonLine(Dictionary(values.map { ($0.key, $0.value) }) { $1 })))
        } else {
            reply(.success("ok " + values.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))
        }
    }
}
