// The main menu page.

/// The main menu: the other pages, lock/unlock, quit.
enum MainPage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        var items: [MenuItem] = [
            MenuItem("Capture", value: "shutter, self-timer, burst", action: .open(.capture)),
            MenuItem("Camera", value: "switch, focus, exposure, flash, torch", action: .open(.camera)),
            MenuItem("Viewfinder", value: "live preview", action: .open(.viewfinder)),
            MenuItem(
                "Library", value: "albums, photos, edits, export", action: .open(.library), needsPIN: true),
            MenuItem("System", value: "storage, board diagnostics, logs, shutdown", action: .open(.system)),
            MenuItem("GPS and clock", value: "fix, satellites, gpsd, clock trust", action: .open(.gps)),
            MenuItem(
                "Settings", value: "saved to the configuration file", action: .open(.settings), needsPIN: true
            ),
        ]
        items.append(
            MenuItem(
                "Command line", value: "any console command, with history",
                action: .ask(Prompt("pinhole", .line))))
        // Lock or unlock, line mode, quit: the commands' own entries.
        items += CommandCatalog.menuItems(on: .main, menu)
        return items
    }
}
