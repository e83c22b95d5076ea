// `ae`: holding the exposure AE has chosen, and metering at a point of the picture.

import PinholeAppliance

/// `ae lock|unlock`, `ae point X Y|off`.
public enum AECommand: ConsoleCommand {
    /// Hold (true) or release the exposure AE has chosen.
    case lock(Bool)
    /// Meter at a point of the upright picture.
    case point(x: Double, y: Double)
    /// Meter by the metering mode again.
    case pointOff

    /// `ae point` is saved and restored at start: it needs the PIN. `ae lock|unlock` holds
    /// AE only while the camera runs: open.
    public var access: CommandAccess {
        if case .lock = self { return .open }
        return .pin
    }

    /// The `ae` verb.
    public static let definition = CommandDefinition(
        "ae", group: .camera,
        forms: [
            form("ae lock|unlock", "hold the exposure AE has chosen, or let it follow", "ae lock"),
            form(
                "ae point X Y|off", "meter at a point of the upright picture (0…1, 0 0 is the top left)",
                "ae point 0.25 0.5", "ae point off"),
        ]
    ) { words in
        if words[0] == "point" {
            if words.count == 2, words[1] == "off" { return AECommand.pointOff }
            guard words.count == 3, let x = Double(words[1]!), let y = Double(words[2]!) else {
                throw ConsoleError.usage(
                    "usage: ae point X Y (normalized 0…1, 0 0 is the top left) | ae point off")
            }
            return AECommand.point(x: x, y: y)
        }
        guard let lock = words.single({ ["lock": true, "unlock": false][$0] }) else {
            throw ConsoleError.usage("usage: ae lock|unlock | ae point X Y|off")
        }
        return AECommand.lock(lock)
    }

    /// Sets the lock or the metering point (checked against what the camera can do).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        let engine = console.appliance.engine
        switch self {
        case .lock(let lock):
            try engine.setAELock(lock)
            reply(.success("ok ae \(lock ? "locked" : "unlocked")"))
        case .point(let x, let y):
            try engine.setAEPoint(x: x, y: y)
            reply(.success("ok ae point \(x) \(y)"))
        case .pointOff:
            try engine.clearAEPoint()
            reply(.success("ok ae point off (metering \(engine.exposure.metering.rawValue))"))
        }
    }
}

extension AECommand {
    /// The metering point on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 110) { menu in
            MenuItem(
                "AE point",
                value: menu.snapshot.status?.aePoint.map {
                    "\(CameraPage.rounded($0[0])) \(CameraPage.rounded($0[1]))"
                } ?? "metering mode",
                action: .ask(
                    Prompt(
                        "AE point: x y (0…1, 0 0 is the top left), or off", .words(before: ["ae", "point"]),
                        initial: "0.5 0.5")))
        }
    ]
}
