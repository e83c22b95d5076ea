// The pieces a menu page is made of: items, what they do, and the page identifiers.

/// The menu's pages.
public enum MenuPageID: Hashable, Sendable {
    case main, capture, camera, library, albums, photos, photo, system, diagnostics, logs, settings,
        viewfinder, gps
}

/// What choosing an item does.
public enum ItemAction: Hashable, Sendable {
    /// Opens a page.
    case open(MenuPageID)
    /// Runs a console command (irreversible ones are confirmed with a typed word first).
    case run(ConsoleInvocation)
    /// Asks for a value, then runs the command the answer makes.
    case ask(Prompt)
    /// Goes back one page.
    case back
    /// Leaves the console.
    case quit
    /// Switches the console to line mode (for a script on the other end).
    case lineMode
    /// A menu-local action handled by the page itself (paging, selecting a photo…).
    case local(String)

    /// Runs `command` (a plain answer, not JSON).
    public static func run(_ command: any ConsoleCommand) -> ItemAction { .run(ConsoleInvocation(command)) }
}

/// How a prompt's answer becomes a command.
public enum AnswerForm: Hashable, Sendable {
    /// The answer is a whole console line (the menu's command line).
    case line
    /// The answer is one word between `before` and `after`, taken as typed: spaces, quotes
    /// and a leading `--` are part of it (an album named `--json` or `O"Brien`).
    case word(before: [String], after: [String] = [])
    /// The answer is split at spaces into several words between `before` and `after`.
    case words(before: [String], after: [String] = [])
}

/// A question at the prompt line.
public struct Prompt: Hashable, Sendable {
    /// The question, e.g. "EV (stops, -2…2)".
    public var label: String
    /// How the answer becomes a command.
    public var form: AnswerForm
    /// A suggested answer, pre-filled.
    public var initial: String
    /// Whether the answer is secret (a PIN): masked, not in the history, not shown after.
    public var secret: Bool

    /// Creates a prompt.
    public init(_ label: String, _ form: AnswerForm, initial: String = "", secret: Bool = false) {
        self.label = label
        self.form = form
        self.initial = initial
        self.secret = secret
    }

    /// The command an answer makes (parsed by the same definitions as line mode).
    public func invocation(for answer: String) throws -> ConsoleInvocation? {
        let trimmed = answer.trimmingWhitespace()
        switch form {
        case .line:
            return try CommandCatalog.parse(line: trimmed)
        case .word(let before, let after):
            return try CommandCatalog.parse(words: before + [trimmed] + after, options: false)
        case .words(let before, let after):
            let words = trimmed.split(whereSeparator: \.isWhitespace).map(String.init)
            return try CommandCatalog.parse(words: before + words + after, options: false)
        }
    }
}

/// One line of a page: a label, an optional value shown at the right, an optional action.
public struct MenuItem: Hashable, Sendable {
    /// The label.
    public var label: String
    /// The current value, shown after the label.
    public var value: String
    /// What Enter does; nil for an information row (not selectable).
    public var action: ItemAction?
    /// Whether the item needs the PIN (shown with a lock mark while locked; the menu asks for
    /// the PIN before acting on it).
    public var needsPIN: Bool

    /// Creates an item. An item that runs a command needs the PIN when its command does (the
    /// command's own access rule), or when `needsPIN` says so (a page that opens behind it).
    public init(_ label: String, value: String = "", action: ItemAction? = nil, needsPIN: Bool = false) {
        self.label = label
        self.value = value
        self.action = action
        if case .run(let invocation) = action {
            self.needsPIN = needsPIN || invocation.command.needsPIN
        } else {
            self.needsPIN = needsPIN
        }
    }

    /// An information row.
    public static func info(_ label: String, _ value: String = "") -> MenuItem {
        MenuItem(label, value: value)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }

}
