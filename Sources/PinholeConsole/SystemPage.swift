// The System page: storage, board and GPIO diagnostics, logs, safe shutdown.

import PinholeAppliance
import PinholeBoard

/// System information and maintenance.
enum SystemPage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        let status = menu.snapshot.status
        return [
            .info("Board", status?.board ?? "-"),
            .info("Photos stored", status?.photos.map(String.init) ?? "?"),
            .info("Storage free", status?.storageFreeBytes.map(StatusLine.bytes) ?? "?"),
            .info("Frames from the camera", status.map { "\($0.frames)" } ?? "-"),
            MenuItem(
                "Board and GPIO diagnostics", value: "live buttons, LED test", action: .open(.diagnostics)),
            MenuItem("Logs", value: "problems and events", action: .open(.logs)),
        ] + CommandCatalog.menuItems(on: .system, menu)  // fsck, safe shutdown, power off
    }

    static func diagnostics(_ menu: ConsoleMenu) -> [MenuItem] {
        var items: [MenuItem] = [.info("Buttons (live)")]
        if menu.snapshot.buttons.isEmpty { items.append(.info("  none on this board")) }
        for button in menu.snapshot.buttons {
            items.append(.info("  \(button.name)", button.pressed ? "PRESSED" : "up"))
        }
        items.append(.info("Outputs"))
        items += CommandCatalog.menuItems(on: .diagnostics, menu)  // LEDCommand's test items
        return items
    }

    static func logs(_ menu: ConsoleMenu) -> [MenuItem] {
        let lines = menu.snapshot.log.suffix(menu.bodyRows)
        if lines.isEmpty { return [.info("Nothing logged yet")] }
        return lines.map { MenuItem.info($0) }
    }
}
