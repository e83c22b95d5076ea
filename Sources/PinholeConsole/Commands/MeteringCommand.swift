// `metering centre|spot|matrix`: the metering mode of auto exposure.

import PinholeAppliance
import PinholeCapture

/// `metering centre|spot|matrix` (also `center`).
public struct MeteringCommand: ConsoleCommand {
    /// The metering mode.
    public var mode: MeteringMode

    /// Creates the command.
    public init(mode: MeteringMode) { self.mode = mode }

    /// The `metering` verb.
    public static let definition = CommandDefinition(
        "metering", group: .camera, access: .pin,
        forms: [form("metering centre|spot|matrix", "metering mode", "metering spot")]
    ) { words in
        let word = words[0] == "center" ? "centre" : words[0] ?? ""
        guard words.count == 1, let mode = MeteringMode(rawValue: word) else {
            throw ConsoleError.usage("usage: metering centre|spot|matrix")
        }
        return MeteringCommand(mode: mode)
    }

    /// Sets the metering mode (checked against what the camera reports).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        try console.appliance.engine.setMetering(mode)
        reply(.success("ok metering \(mode.rawValue)"))
    }
}

extension MeteringCommand {
    /// The metering mode on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 80) { _ in
            MenuItem(
                "Metering", value: "centre, spot, matrix",
                action: .ask(Prompt("Metering: centre, spot or matrix", .word(before: ["metering"]))))
        }
    ]
}
