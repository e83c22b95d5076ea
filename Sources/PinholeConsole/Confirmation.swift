// Which menu commands are confirmed with a typed word, and the word for each.

/// A typed-word confirmation: the menu shows `question` and runs `invocation` only when the
/// person types `word` (one key is not enough: line noise or a stray `y` must not delete,
/// save or shut down). Line mode never asks: its commands are explicit.
public struct Confirmation: Hashable, Sendable {
    /// The question shown.
    public var question: String
    /// The word to type.
    public var word: String
    /// What runs when the word is typed.
    public var invocation: ConsoleInvocation

    /// The confirmation a command needs in the menu (its own `confirmation`), or nil when it
    /// runs at once: PIN set or clear, saving a setting, delete, purge, revert, shutdown,
    /// power off, quit.
    public static func needed(for invocation: ConsoleInvocation) -> Confirmation? {
        invocation.command.confirmation.map {
            Confirmation(question: $0.question, word: $0.word, invocation: invocation)
        }
    }

    /// Whether `answer` is the word (case and surrounding spaces do not matter).
    public func accepts(_ answer: String) -> Bool {
        answer.trimmingWhitespace().lowercased() == word
    }
}
