// `log [--json]`: the recent problems.

import PinholeAppliance

/// `log [--json]`.
public struct LogCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `log` verb.
    public static let definition = CommandDefinition(
        "log", group: .appliance, forms: [form("log [--json]", "recent problems and events", "log")]
    ) { words in
        try words.finish(usage: "log [--json]")
        return LogCommand()
    }

    /// Answers with the problems seen since start.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        let lines = console.appliance.problems
        reply(
            .success(
                json
                    ? jsonLine(lines)
                    : "ok " + (lines.isEmpty ? "nothing logged" : lines.joined(separator: " | "))))
    }
}
