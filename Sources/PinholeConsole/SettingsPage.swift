// The Settings page: settings saved to the configuration file, and the console PIN.

/// Settings saved to the configuration file; every change is a `set`/`pin` command.
enum SettingsPage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        let values = Dictionary(
            menu.snapshot.settings.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        guard let file = menu.snapshot.settingsFile else {
            return [.info("Settings cannot be saved: no configuration file")]
        }
        func value(_ key: String) -> String { values[key] ?? "-" }
        let colourOn = value("console.colour") == "on"
        let unicodeOn = value("console.unicode") == "on"
        var items: [MenuItem] = [
            MenuItem(
                "JPEG quality", value: value("capture.quality"),
                action: .ask(
                    Prompt(
                        "JPEG quality (1-100)", .word(before: ["set", "capture.quality"]),
                        initial: value("capture.quality")))),
            MenuItem(
                "Colour", value: value("console.colour"),
                action: .run(SetCommand(key: "console.colour", value: colourOn ? "off" : "on"))),
            MenuItem(
                "Viewfinder characters", value: unicodeOn ? "half blocks" : "ASCII",
                action: .run(SetCommand(key: "console.unicode", value: unicodeOn ? "off" : "on"))),
            MenuItem(
                "Lock after idle", value: value("console.idle_lock") + " s",
                action: .ask(
                    Prompt(
                        "Seconds without input before the PIN is needed again",
                        .word(before: ["set", "console.idle_lock"]), initial: value("console.idle_lock")))),
            MenuItem(
                "Console mode at start", value: value("console.mode"),
                action: .ask(
                    Prompt(
                        "Console mode: auto, menu or line", .word(before: ["set", "console.mode"]),
                        initial: value("console.mode")))),
            MenuItem(
                "Serial speed", value: value("console.baud"),
                action: .ask(Prompt("Serial speed (baud)", .word(before: ["set", "console.baud"])))),
            MenuItem(
                value("console.pin") == "set" ? "Change PIN" : "Set a PIN",
                value: value("console.pin") == "set" ? "set" : "none: library and settings are open",
                action: .ask(
                    Prompt("New PIN (4-32 characters)", .word(before: ["pin", "set"]), secret: true))),
        ]
        if value("console.pin") == "set" {
            items.append(
                MenuItem(
                    "Remove PIN", value: "open library and settings to anyone",
                    action: .run(PINCommand.clear)))
        }
        items.append(.info(""))
        items.append(.info("Saved to", file.string))
        return items
    }
}
