// One console verb's definition: its forms for help, and the parser from words to a command.

/// One verb of the console language (`capture`, `af`, `sim` …): the forms shown by `help`
/// and `help --json`, the usage line of its errors, the access rule, and the parser that
/// turns its words into its command type's value. Each command type holds its own
/// (`ConsoleCommand.definition`); `CommandCatalog.definitions` lists them in help order: by
/// `group`, then by verb.
public struct CommandDefinition: Sendable {
    /// Where a verb stands in `help`: the groups in this order, the verbs of a group by name.
    public enum Group: Int, Comparable, Sendable, CaseIterable {
        /// Taking photos and clips: `capture`, `record`, `timelapse`.
        case shooting
        /// The camera's controls: focus, exposure, white balance, flash, torch, zoom.
        case camera
        /// The photo library: `library`, `album`.
        case library
        /// The appliance: status, GPIO, LEDs, logs, settings, shutdown, the simulated board.
        case appliance
        /// The console itself: `menu`, `help`, `quit`, the PIN.
        case console

        /// Groups in help order.
        public static func < (lhs: Group, rhs: Group) -> Bool { lhs.rawValue < rhs.rawValue }
    }

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
    /// Where the verb stands in `help`.
    public var group: Group
    /// Who may run the verb's commands (a command type may refine it per command).
    public var access: CommandAccess
    /// Whether the parser gets the words exactly as typed, `--json` included (`library`,
    /// whose own language reads them).
    public var wordsAsTyped: Bool
    /// The forms, in help order.
    public var forms: [Form]
    /// Parses the words after the verb (without `--json`, unless `wordsAsTyped`).
    let parse: @Sendable (inout CommandWords) throws -> any ConsoleCommand

    init(
        _ verb: String, group: Group, aliases: [String] = [], access: CommandAccess = .open,
        wordsAsTyped: Bool = false, forms: [Form],
        parse: @escaping @Sendable (inout CommandWords) throws -> any ConsoleCommand
    ) {
        self.verb = verb
        self.group = group
        self.aliases = aliases
        self.access = access
        self.wordsAsTyped = wordsAsTyped
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

    /// The value of the only word, when there is exactly one and `parse` takes it
    /// (`words.single(Double.init)`, `words.single { ["on": true, "off": false][$0] }`).
    func single<Value>(_ parse: (String) -> Value?) -> Value? {
        words.count == 1 ? parse(words[0]) : nil
    }

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
