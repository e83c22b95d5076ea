// `help [--json]` (also `?`): every form of every command, made from the catalog.

/// `help [--json]`.
public struct HelpCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `help` verb.
    public static let definition = CommandDefinition(
        "help", group: .console, aliases: ["?"],
        forms: [form("help [--json]", "this list", "help", "help --json")]
    ) { _ in HelpCommand() }

    /// Answers with the catalog's forms.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        reply(.success(json ? CommandCatalog.helpJSON : CommandCatalog.help))
    }
}
