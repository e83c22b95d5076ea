// `awb`: the white-balance mode, and holding the balance AWB has chosen.

import PinholeAppliance
import PinholeCapture

/// `awb MODE`, `awb lock|unlock`.
public enum AWBCommand: ConsoleCommand {
    /// A white-balance mode.
    case mode(WhiteBalanceMode)
    /// Hold (true) or release the balance AWB has chosen.
    case lock(Bool)

    /// The white-balance mode is saved and restored at start: it needs the PIN. `awb
    /// lock|unlock` holds AWB only while the camera runs: open.
    public var access: CommandAccess {
        if case .lock = self { return .open }
        return .pin
    }

    /// The `awb` verb.
    public static let definition = CommandDefinition(
        "awb", group: .camera,
        forms: [
            form(
                "awb " + WhiteBalanceMode.allCases.map(\.rawValue).joined(separator: "|"), "white balance",
                "awb auto", "awb daylight"),
            form("awb lock|unlock", "hold the colour balance AWB has chosen, or let it follow", "awb lock"),
        ]
    ) { words in
        if let lock = words.single({ ["lock": true, "unlock": false][$0] }) {
            return AWBCommand.lock(lock)
        }
        guard let mode = words.single(WhiteBalanceMode.init(rawValue:)) else {
            let modes = WhiteBalanceMode.allCases.map(\.rawValue).joined(separator: "|")
            throw ConsoleError.usage("usage: awb \(modes)")
        }
        return AWBCommand.mode(mode)
    }

    /// Sets the white balance or its lock (checked against what the camera reports).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        let engine = console.appliance.engine
        switch self {
        case .mode(let mode):
            try engine.setWhiteBalance(mode)
            reply(.success("ok awb \(mode.rawValue)"))
        case .lock(let lock):
            try engine.setAWBLock(lock)
            reply(.success("ok awb \(lock ? "locked" : "unlocked")"))
        }
    }
}

extension AWBCommand {
    /// White balance on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 90) { _ in
            MenuItem(
                "White balance", value: "auto or a preset",
                action: .ask(
                    Prompt(
                        "White balance: auto, daylight, cloudy, tungsten, fluorescent, indoor",
                        .word(before: ["awb"]), initial: "auto")))
        }
    ]
}
