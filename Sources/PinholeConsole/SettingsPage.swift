// The Settings page (filled in with the persisted settings).

/// Settings saved to the configuration file.
enum SettingsPage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        menu.snapshot.settings.map { MenuItem.info($0.key, $0.value) }
    }
}
