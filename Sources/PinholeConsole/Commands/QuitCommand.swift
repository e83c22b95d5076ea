// `quit` (also `exit`): leave the console.

/// `quit`.
public struct QuitCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `quit` verb.
    public static let definition = CommandDefinition(
        "quit", aliases: ["exit"],
        forms: [form("quit", "leave the console (the appliance keeps running under systemd)", "quit")]
    ) { _ in QuitCommand() }

    /// The menu asks for `quit` first.
    public var confirmation: ConfirmationQuestion? { ConfirmationQuestion("Stop Pinhole?", word: "quit") }

    /// Answers, then leaves.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        reply(.success("ok bye"))
        console.onQuit?()
    }
}
