// `torch on|off`: the torch LED, on cameras whose scene it lights.

import PinholeAppliance

/// `torch on|off`.
public struct TorchCommand: ConsoleCommand {
    /// Whether the torch goes on.
    public var on: Bool

    /// Creates the command.
    public init(on: Bool) { self.on = on }

    /// The `torch` verb.
    public static let definition = CommandDefinition(
        "torch", group: .camera,
        forms: [form("torch on|off", "the torch LED (cameras with a torch)", "torch on", "torch off")]
    ) { words in
        guard let on = words.single({ ["on": true, "off": false][$0] }) else {
            throw ConsoleError.usage("usage: torch on|off")
        }
        return TorchCommand(on: on)
    }

    /// Turns the torch on or off.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        try console.appliance.setTorch(on)
        console.answerReports(eventsStartingWith: ["torch "])
        reply(.success("ok torch \(on ? "on" : "off")"))
    }
}

extension TorchCommand {
    /// The torch, last on the Camera page: Enter turns it the other way.
    public static let menuEntries = [
        MenuEntry(.camera, at: 140) { menu in
            let torch = menu.snapshot.status?.torch ?? false
            return MenuItem("Torch", value: torch ? "on" : "off", action: .run(TorchCommand(on: !torch)))
        }
    ]
}
