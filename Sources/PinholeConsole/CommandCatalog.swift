// Every console verb in one list: parsing lines into commands, and the help made from it.

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The console language. `parse` turns a line (or words) into a `ConsoleInvocation`;
/// `help` and `helpJSON` are generated from the same definitions, and so is every usage
/// error. Each verb's definition lives with its command type (`Commands/VerbCommand.swift`);
/// the list of those types, `commandTypes`, is generated from the folder at build time
/// (tools/command-list), so a new command is its file and nothing else.
public enum CommandCatalog {
    /// The verbs, in help order: by group, then by name.
    public static let definitions: [CommandDefinition] = commandTypes.map { $0.definition }.sorted {
        ($0.group, $0.verb) < ($1.group, $1.verb)
    }

    /// The words that come before a secret (`unlock PIN`, `pin set NEW_PIN`): what follows
    /// them is masked on screen and keeps the line out of the menu's history.
    static let secretPrefixes: [[String]] = [["unlock"], ["pin", "set"]]

    /// Where the secret begins in a command line as typed (just after its prefix words), nil
    /// when the line carries none.
    public static func secretStart(_ characters: [Character]) -> Int? {
        var words: [(end: Int, text: String)] = []
        var index = 0
        while index < characters.count, words.count < 2 {
            while index < characters.count, characters[index] == " " { index += 1 }
            let start = index
            while index < characters.count, characters[index] != " " { index += 1 }
            if index > start { words.append((index, String(characters[start..<index]).lowercased())) }
        }
        for prefix in secretPrefixes where words.count >= prefix.count {
            guard zip(prefix, words).allSatisfy({ $0 == $1.text }) else { continue }
            var start = words[prefix.count - 1].end
            while start < characters.count, characters[start] == " " { start += 1 }
            return start
        }
        return nil
    }

    /// Parses one line of input; nil for a blank line.
    public static func parse(line: String) throws -> ConsoleInvocation? {
        let words = try tokenize(line)
        guard !words.isEmpty else { return nil }
        return try parse(words: words)
    }

    /// Parses words (the first is the verb). `--json` anywhere asks for a JSON answer; a verb
    /// whose definition takes its words as typed (`library`) gets them untouched (its own
    /// language reads `--json`). With `options` false (a menu prompt's answer) `--json` is an
    /// ordinary word.
    public static func parse(words: [String], options: Bool = true) throws -> ConsoleInvocation {
        guard let verb = words.first else {
            throw ConsoleError.usage("empty command: type help for the list")
        }
        let json = options && words.contains("--json")
        guard let definition = definition(for: verb) else {
            throw ConsoleError.usage("unknown command '\(verb)': type help for the list")
        }
        if definition.wordsAsTyped {
            var rest = CommandWords(Array(words.dropFirst()))
            return ConsoleInvocation(try definition.parse(&rest), json: json)
        }
        var rest = CommandWords(Array(words.dropFirst()).filter { !json || $0 != "--json" })
        return ConsoleInvocation(try definition.parse(&rest), json: json)
    }

    /// The definition of a verb or alias.
    public static func definition(for verb: String) -> CommandDefinition? {
        byVerb[verb]
    }

    private static let byVerb: [String: CommandDefinition] = {
        var table: [String: CommandDefinition] = [:]
        for definition in definitions {
            for name in [definition.verb] + definition.aliases { table[name] = definition }
        }
        return table
    }()

    /// Every form, in help order.
    public static var forms: [CommandDefinition.Form] { definitions.flatMap(\.forms) }

    /// The `help` answer.
    public static var help: String { "ok commands: " + forms.map(\.usage).joined(separator: " | ") }

    /// The `help --json` answer.
    public static var helpJSON: String {
        jsonLine(forms.map { ["command": $0.usage, "does": $0.summary] })
    }
}
