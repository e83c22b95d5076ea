// `gpio status [--json]`: every input and output with its current state.

import PinholeAppliance

/// `gpio status [--json]`.
public struct GPIOCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `gpio` verb.
    public static let definition = CommandDefinition(
        "gpio", group: .appliance,
        forms: [form("gpio status [--json]", "inputs and outputs with their current state", "gpio status")]
    ) { words in
        guard words.all == ["status"] else { throw ConsoleError.usage("usage: gpio status [--json]") }
        return GPIOCommand()
    }

    /// Answers with every input and output.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        let status = console.appliance.gpioStatus()
        if json {
            reply(.success(jsonLine(status)))
            return
        }
        let inputs = status.inputs.map { input in
            "\(input.function) \(input.line) \(input.pressed ? "pressed" : "released")"
        }
        let outputs = status.outputs.map {
            "\($0.function) \($0.line) \($0.on ? "on" : "off") (\($0.showing))"
        }
        var parts = [
            "inputs " + inputs.joined(separator: ", "), "outputs " + outputs.joined(separator: ", "),
        ]
        if let tilt = status.tilt { parts.append("tilt \(tilt.rotation)°") }
        reply(.success("ok " + parts.joined(separator: "; ")))
    }
}
