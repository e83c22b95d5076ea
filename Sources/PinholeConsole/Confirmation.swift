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

    /// The confirmation a command needs in the menu, or nil when it runs at once:
    /// PIN set or clear, saving a setting, delete, purge, revert, shutdown, power off, quit.
    public static func needed(for invocation: ConsoleInvocation) -> Confirmation? {
        func ask(_ question: String, _ word: String) -> Confirmation {
            Confirmation(question: question, word: word, invocation: invocation)
        }
        switch invocation.command {
        case .pinSet: return ask("Save the new PIN to the configuration file?", "pin")
        case .pinClear: return ask("Remove the PIN (library and settings open to anyone)?", "remove")
        case .set(let key, let value): return ask("Save \(key) = \(value) to the configuration file?", "save")
        case .shutdown(powerOff: false): return ask("Shut Pinhole down now?", "shutdown")
        case .shutdown(powerOff: true): return ask("Shut down and power the board off now?", "poweroff")
        case .quit: return ask("Stop Pinhole?", "quit")
        case .library(let words):
            let verbs = words.filter { !$0.hasPrefix("--") }
            switch verbs.first {
            case "delete": return ask("Move to Recently Deleted?", "delete")
            case "purge": return ask("Delete permanently (cannot be undone)?", "purge")
            case "edit" where verbs.dropFirst().first == "revert":
                return ask("Revert to the original (the edit is discarded)?", "revert")
            case "album" where verbs.dropFirst().first == "delete":
                return ask("Delete this album (its photos stay)?", "delete")
            default: return nil
            }
        default: return nil
        }
    }

    /// Whether `answer` is the word (case and surrounding spaces do not matter).
    public func accepts(_ answer: String) -> Bool {
        answer.trimmingWhitespace().lowercased() == word
    }
}
