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
        let access = menu.snapshot.access
        if access.pinConfigured {
            if access.unlocked {
                items.append(
                    MenuItem(
                        "Lock", value: "library and settings need the PIN again", action: .run(LockCommand()))
                )
            } else {
                items.append(
                    MenuItem(
                        "Unlock", value: "enter the PIN",
                        action: .ask(Prompt("PIN to unlock", .word(before: ["unlock"]), secret: true))))
            }
        }
        if menu.snapshot.canSwitchToLineMode {
            items.append(
                MenuItem("Line mode", value: "for scripts; type `menu` to come back", action: .lineMode))
        }
        if menu.snapshot.canQuit {
            items.append(MenuItem("Quit", value: "stop Pinhole", action: .run(QuitCommand())))
        }
        return items
    }
}
