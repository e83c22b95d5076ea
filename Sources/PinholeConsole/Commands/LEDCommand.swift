// `led test NAME`: blink one output three times.

import PinholeAppliance
import PinholeBoard

/// `led test NAME`.
public struct LEDCommand: ConsoleCommand {
    /// The output to blink.
    public var output: OutputFunction

    /// Creates the command.
    public init(test output: OutputFunction) { self.output = output }

    /// The `led` verb.
    public static let definition = CommandDefinition(
        "led", group: .appliance,
        forms: [
            form(
                "led test NAME",
                "blink an output (" + OutputFunction.allCases.map(\.rawValue).joined(separator: ", ") + ")",
                "led test status")
        ]
    ) { words in
        guard words.count == 2, words[0] == "test" else {
            throw ConsoleError.usage("usage: led test NAME")
        }
        guard let function = OutputFunction(rawValue: words[1]!) else {
            let names = OutputFunction.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConsoleError.usage("no output '\(words[1]!)': outputs are \(names)")
        }
        return LEDCommand(test: function)
    }

    /// Plays a transient pattern (the output's steady state resumes when it ends); answers
    /// when it has played.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        let appliance = console.appliance
        guard let controller = appliance.outputs[output] else {
            throw ConsoleError.unavailable("this board has no \(output.rawValue) output")
        }
        controller.play(BlinkPattern(name: "test", on: .milliseconds(200), off: .milliseconds(200), count: 3))
        let name = output.rawValue
        appliance.loop.schedule(after: .milliseconds(1200)) {
            reply(.success("ok blinked \(name) 3 times"))
        }
    }
}

extension LEDCommand {
    /// A test item per output on the diagnostics page.
    public static let menuEntries = [
        MenuEntry(.diagnostics, at: 10) { menu in
            menu.snapshot.outputs.map { output in
                MenuItem(
                    "  Test \(output.name)", value: output.on ? "on" : "off",
                    action: OutputFunction(rawValue: output.name).map { .run(LEDCommand(test: $0)) })
            }
        }
    ]
}
