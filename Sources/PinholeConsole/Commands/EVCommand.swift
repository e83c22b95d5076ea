// `ev STOPS`: exposure compensation.

import PinholeAppliance

/// `ev STOPS`.
public struct EVCommand: ConsoleCommand {
    /// The compensation in stops.
    public var stops: Double

    /// Creates the command.
    public init(stops: Double) { self.stops = stops }

    /// The `ev` verb.
    public static let definition = CommandDefinition(
        "ev", group: .camera, access: .pin,
        forms: [form("ev STOPS", "exposure compensation", "ev -1", "ev 0.5")]
    ) { words in
        guard let stops = words.single(Double.init) else {
            throw ConsoleError.usage("usage: ev STOPS")
        }
        return EVCommand(stops: stops)
    }

    /// Sets the compensation (checked against what the camera reports).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        try console.appliance.engine.setEV(stops)
        reply(.success("ok ev \(stops)"))
    }
}

extension EVCommand {
    /// EV compensation on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 70) { _ in
            MenuItem(
                "EV compensation", value: "stops",
                action: .ask(Prompt("EV compensation in stops (-2…2)", .word(before: ["ev"]), initial: "0")))
        }
    ]
}
