// One console verb's definition: its forms for help, and the parser from words to a command.

/// One verb of the console language (`capture`, `af`, `sim` …): the forms shown by `help`
/// and `help --json`, the usage line of its errors, and the parser that turns its words
/// into a `ConsoleCommand`. `CommandCatalog.definitions` lists them all.
public struct CommandDefinition: Sendable {
    /// One form of the verb as `help` shows it.
    public struct Form: Sendable {
        /// The syntax, e.g. `capture --timer SECONDS`.
        public var usage: String
        /// What it does.
        public var summary: String
        /// Lines that must parse (tests check every one).
        public var examples: [String]
    }

    /// The first word.
    public var verb: String
    /// Other first words meaning the same (`?` for `help`).
    public var aliases: [String]
    /// The forms, in help order.
    public var forms: [Form]
    /// Parses the words after the verb (without `--json`).
    let parse: @Sendable (inout CommandWords) throws -> ConsoleCommand

    init(
        _ verb: String, aliases: [String] = [], forms: [Form],
        parse: @escaping @Sendable (inout CommandWords) throws -> ConsoleCommand
    ) {
        self.verb = verb
        self.aliases = aliases
        self.forms = forms
        self.parse = parse
    }

    /// The usage error text of this verb: every form.
    public var usage: String { "usage: " + forms.map(\.usage).joined(separator: " | ") }
}

/// A form of a verb: `form("capture --burst N", "N photos in a row", "capture --burst 3")`.
func form(_ usage: String, _ summary: String, _ examples: String...) -> CommandDefinition.Form {
    CommandDefinition.Form(usage: usage, summary: summary, examples: examples)
}

/// The words of one command after its verb: positionals and `--name value` options.
public struct CommandWords: Sendable {
    /// The words not yet taken.
    public private(set) var words: [String]

    init(_ words: [String]) { self.words = words }

    /// All the words, in order.
    var all: [String] { words }

    /// The number of words left.
    var count: Int { words.count }

    /// The word at `index` of the remaining words, if any.
    subscript(_ index: Int) -> String? { words.indices.contains(index) ? words[index] : nil }

    /// The next positional word (not an option, nor an option's value).
    mutating func word() -> String? {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") }) else { return nil }
        if index > 0, words[index - 1].hasPrefix("--") { return nil }
        return words.remove(at: index)
    }

    /// Whether `--name` was given (taken out).
    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// An integer option `--name N` (N ≥ 0).
    mutating func integer(_ name: String) throws -> Int? {
        guard let index = words.firstIndex(of: name) else { return nil }
        guard index + 1 < words.count, let value = Int(words[index + 1]), value >= 0 else {
            throw ConsoleError.usage("\(name) needs a whole number ≥ 0")
        }
        words.removeSubrange(index...(index + 1))
        return value
    }

    /// An integer option `--name N` within `range` (a usage error names the range).
    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = try integer(name) else { return nil }
        guard range.contains(value) else {
            throw ConsoleError.usage("\(name) takes \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A text option `--name VALUE`, taken out with its value (the value may itself start
    /// with `--`: an album named `--json`).
    mutating func option(_ name: String) throws -> String? {
        guard let index = words.firstIndex(of: name) else { return nil }
        guard index + 1 < words.count else { throw ConsoleError.usage("\(name) needs a value") }
        let value = words[index + 1]
        words.removeSubrange(index...(index + 1))
        return value
    }

    /// Fails if anything is left over.
    func finish(usage: String) throws {
        if let extra = words.first { throw ConsoleError.usage("unexpected '\(extra)': usage: \(usage)") }
    }

    /// Throws `usage` unless `condition` holds.
    func expect(_ condition: Bool, _ usage: String) throws {
        guard condition else { throw ConsoleError.usage(usage) }
    }
}
