// Line editing at a prompt: cursor movement, deletion, history; standard library only.

/// An editable line with a cursor and a history of submitted lines (Up/Down recall them).
///
/// Keys: printable characters insert; Left/Right/Home/End (and Ctrl-A/E/B/F) move;
/// Backspace/Delete (and Ctrl-H/D) delete; Ctrl-U/K cut to the start/end; Ctrl-W deletes a
/// word; Up/Down (Ctrl-P/N) walk the history; Enter submits; Ctrl-C and Escape cancel.
public struct LineEditor: Sendable {
    /// What a key did.
    public enum Outcome: Equatable, Sendable {
        /// The line changed or the cursor moved (or nothing happened).
        case editing
        /// Enter: the line is submitted (and added to the history unless secret or blank).
        case submitted(String)
        /// Ctrl-C or Escape: the prompt is abandoned.
        case cancelled
        /// The key could not be applied (line full, start of history…): ring the bell.
        case bell
    }

    /// The characters of the line.
    public private(set) var characters: [Character] = []
    /// The cursor, 0…characters.count.
    public private(set) var cursor = 0
    /// The longest line accepted.
    public var maximumLength: Int
    /// Whether the line is secret (a PIN): shown as `*`, never kept in the history.
    public var isSecret = false
    /// Where a secret starts in a line as typed (`unlock 1234`: after `unlock `), nil when the
    /// line holds none: from there on it is shown as `*`, and the line is never kept in the
    /// history.
    public var secretStart: (@Sendable ([Character]) -> Int?)?
    /// Submitted lines, oldest first.
    public private(set) var history: [String] = []
    /// How many lines the history keeps.
    public var historyLimit: Int
    private var historyIndex: Int?
    private var draft: [Character] = []

    /// An empty editor.
    public init(maximumLength: Int = 200, historyLimit: Int = 50) {
        self.maximumLength = max(1, maximumLength)
        self.historyLimit = max(0, historyLimit)
    }

    /// The line's text.
    public var text: String { String(characters) }

    /// Forgets every line submitted (the console locked: the next person must not recall them).
    public mutating func clearHistory() {
        history.removeAll()
        historyIndex = nil
        draft = []
    }

    /// Starts a new line (keeps the history), optionally pre-filled.
    public mutating func reset(_ text: String = "", secret: Bool = false) {
        characters = Array(text.prefix(maximumLength))
        cursor = characters.count
        isSecret = secret
        historyIndex = nil
        draft = []
    }

    /// Applies one key.
    public mutating func handle(_ key: TerminalKey) -> Outcome {
        switch key {
        case .character(let character): return insert(character)
        case .enter:
            let line = text
            if !isSecret, secretStart?(characters) == nil, !line.allSatisfy(\.isWhitespace),
                history.last != line
            {
                history.append(line)
                if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
            }
            reset(secret: isSecret)
            return .submitted(line)
        case .interrupt, .escape:
            reset(secret: isSecret)
            return .cancelled
        case .backspace, .control("h"):
            guard cursor > 0 else { return .bell }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete, .control("d"):
            guard cursor < characters.count else { return .bell }
            characters.remove(at: cursor)
        case .left, .control("b"):
            guard cursor > 0 else { return .bell }
            cursor -= 1
        case .right, .control("f"):
            guard cursor < characters.count else { return .bell }
            cursor += 1
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .control("k"): characters.removeSubrange(cursor...)
        case .control("w"): deleteWord()
        case .up, .control("p"): return recall(older: true)
        case .down, .control("n"): return recall(older: false)
        default: return .bell
        }
        return .editing
    }

    private mutating func insert(_ character: Character) -> Outcome {
        guard characters.count < maximumLength else { return .bell }
        characters.insert(character, at: cursor)
        cursor += 1
        return .editing
    }

    private mutating func deleteWord() {
        var start = cursor
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    private mutating func recall(older: Bool) -> Outcome {
        guard !isSecret, !history.isEmpty else { return .bell }
        var index: Int?
        if older {
            let current = historyIndex ?? history.count
            guard current > 0 else { return .bell }
            if historyIndex == nil { draft = characters }
            index = current - 1
        } else {
            guard let current = historyIndex else { return .bell }
            index = current + 1 < history.count ? current + 1 : nil
        }
        historyIndex = index
        characters = index.map { Array(history[$0]) } ?? draft
        cursor = characters.count
        return .editing
    }

    /// The part of the line that fits in `width` columns, scrolled so that the cursor is
    /// visible, and the cursor's column in it. Secret lines show `*` for each character.
    public func visible(width: Int) -> (text: String, cursorColumn: Int) {
        let width = max(2, width)
        let hidden = isSecret ? 0 : secretStart?(characters) ?? characters.count
        let shown =
            Array(characters[..<min(hidden, characters.count)])
            + Array(repeating: Character("*"), count: max(0, characters.count - hidden))
        let start = cursor < width ? 0 : cursor - width + 1
        let end = min(shown.count, start + width)
        return (String(shown[start..<end]), cursor - start)
    }
}
