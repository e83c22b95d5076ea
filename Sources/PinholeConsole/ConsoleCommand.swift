// The console's commands as values: the protocol each verb's command type conforms to.

/// Where a command's answer goes: the answer line, or the error it ends with.
public typealias CommandReply = (Result<String, Error>) -> Void

/// Who may run a command at the console.
public enum CommandAccess: String, Hashable, Sendable, CaseIterable {
    /// Anyone, locked or not.
    case open
    /// Only once unlocked with the PIN, when one is set (`[console] pin_hash`).
    case pin
}

/// A question the menu asks before it runs a command: the person must type `word`.
public struct ConfirmationQuestion: Hashable, Sendable {
    /// The question shown.
    public var question: String
    /// The word to type.
    public var word: String

    /// Creates a question.
    public init(_ question: String, word: String) {
        self.question = question
        self.word = word
    }
}

/// One console command, parsed once at the edge (a line-mode line, a menu item, a menu
/// prompt's answer) and carried as a value from there on. Text exists only at the wire.
///
/// Each verb has one type, in `Commands/VerbCommand.swift`, that holds everything about it:
/// its `definition` (the forms `help` shows, the parser from words, the access rule), its
/// items on the menu's pages (`menuEntries`), the typed-word confirmation the menu asks for,
/// and `run`, which carries it out and answers.
/// `CommandCatalog` finds the definition from the verb; docs/ARCHITECTURE.md says how to add one.
public protocol ConsoleCommand: Hashable, Sendable {
    /// The verb's definition: its forms for help, the parser from words, the access rule.
    static var definition: CommandDefinition { get }
    /// Who may run this command (by default the rule of its verb's definition).
    var access: CommandAccess { get }
    /// The word the menu asks for before running it (by default none: it runs at once).
    var confirmation: ConfirmationQuestion? { get }
    /// Whether the command carries a secret that must not be shown or logged.
    var isSecret: Bool { get }
    /// The verb's items on the menu's pages (by default none).
    static var menuEntries: [MenuEntry] { get }
    /// Carries the command out on `console`; the answer goes to `reply`, now or when done
    /// (a thrown error is answered as `error STATUS: reason`).
    func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws
}

extension ConsoleCommand {
    /// The verb's rule.
    public var access: CommandAccess { Self.definition.access }
    /// None: the command runs at once.
    public var confirmation: ConfirmationQuestion? { nil }
    /// No secret.
    public var isSecret: Bool { false }
    /// No menu items.
    public static var menuEntries: [MenuEntry] { [] }
    /// Whether the command needs the PIN (when one is set).
    public var needsPIN: Bool { access == .pin }
    /// The verb the command belongs to.
    public var verb: String { Self.definition.verb }
    /// The command as an `AnyHashable`: equal only to the same type with the same value.
    var hashableValue: AnyHashable { AnyHashable(self) }
}

/// A command with the answer format asked for (`--json`).
public struct ConsoleInvocation: Hashable, Sendable {
    /// The command.
    public var command: any ConsoleCommand
    /// Whether the answer is one line of JSON.
    public var json: Bool

    /// Creates an invocation.
    public init(_ command: any ConsoleCommand, json: Bool = false) {
        self.command = command
        self.json = json
    }

    /// The command as a value of its own type (nil when it is another verb's).
    public func command<Command: ConsoleCommand>(as type: Command.Type) -> Command? {
        command as? Command
    }

    /// Equal commands (same type, same value) with the same answer format.
    public static func == (lhs: ConsoleInvocation, rhs: ConsoleInvocation) -> Bool {
        lhs.json == rhs.json && lhs.command.hashableValue == rhs.command.hashableValue
    }

    /// Hashes the command and the answer format.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(command.hashableValue)
        hasher.combine(json)
    }
}
