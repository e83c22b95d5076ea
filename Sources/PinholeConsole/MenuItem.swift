// The pieces a menu page is made of: items, what they do, and the page identifiers.

/// The menu's pages.
public enum MenuPageID: Hashable, Sendable {
    case main, capture, camera, library, albums, photos, photo, system, diagnostics, logs, settings,
        viewfinder
}

/// What choosing an item does.
public enum ItemAction: Hashable, Sendable {
    /// Opens a page.
    case open(MenuPageID)
    /// Runs a console command (the line-mode language).
    case run(String)
    /// Asks for a value, then runs `command` with `{}` replaced by the answer.
    case ask(Prompt)
    /// Asks "are you sure?", then runs the command.
    case confirm(question: String, command: String)
    /// Goes back one page.
    case back
    /// Leaves the console.
    case quit
    /// Switches the console to line mode (for a script on the other end).
    case lineMode
    /// A menu-local action handled by the page itself (paging, selecting a photo…).
    case local(String)
}

/// A question at the prompt line.
public struct Prompt: Hashable, Sendable {
    /// The question, e.g. "EV (stops, -2…2)".
    public var label: String
    /// The command to run, with `{}` standing for the answer.
    public var command: String
    /// A suggested answer, pre-filled.
    public var initial: String
    /// Whether the answer is secret (a PIN): masked, not in the history, not shown after.
    public var secret: Bool
    /// Whether the answer goes in as typed (several words), rather than quoted as one word.
    public var raw: Bool

    /// Creates a prompt.
    public init(
        _ label: String, command: String, initial: String = "", secret: Bool = false, raw: Bool = false
    ) {
        self.label = label
        self.command = command
        self.initial = initial
        self.secret = secret
        self.raw = raw
    }

    /// The command for an answer; quotes the answer when it has spaces (unless raw).
    public func command(for answer: String) -> String {
        let trimmed = answer.trimmingWhitespace()
        if raw { return command.replacingPlaceholder(with: trimmed) }
        let quoted = trimmed.contains(" ") ? "\"" + trimmed.filter { $0 != "\"" } + "\"" : trimmed
        return command.replacingPlaceholder(with: quoted)
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
    /// Whether the item needs the PIN (shown with a lock mark while locked).
    public var needsPIN: Bool

    /// Creates an item.
    public init(_ label: String, value: String = "", action: ItemAction? = nil, needsPIN: Bool = false) {
        self.label = label
        self.value = value
        self.action = action
        self.needsPIN = needsPIN
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

    func replacingPlaceholder(with value: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: "{}") {
            result += rest[..<range.lowerBound] + value
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
