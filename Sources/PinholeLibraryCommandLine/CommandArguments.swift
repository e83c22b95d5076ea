// A tiny parser for the `library …` command language: positionals, `--flag` and `--option value`.

import PinholeLibrary

/// Parsed arguments of one `library` command.
struct CommandArguments {
    /// Positional words, in order (the subcommand first).
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var options: [String: String] = [:]
    private var used: Set<String> = []

    /// Parses `arguments`; `valued` names the options that take a value.
    init(_ arguments: [String], valued: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                positionals += arguments[(index + 1)...]
                break
            }
            if word.hasPrefix("--") && word.count > 2 {
                var name = String(word.dropFirst(2))
                var inlineValue: String?
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if valued.contains(name) {
                    if let inlineValue {
                        options[name] = inlineValue
                    } else {
                        guard index + 1 < arguments.count else {
                            throw LibraryError.invalidRequest("option --\(name) needs a value")
                        }
                        options[name] = arguments[index + 1]
                        index += 1
                    }
                } else {
                    guard inlineValue == nil else {
                        throw LibraryError.invalidRequest("option --\(name) takes no value")
                    }
                    flags.insert(name)
                }
            } else {
                positionals.append(word)
            }
            index += 1
        }
    }

    /// Whether `--name` was given.
    mutating func flag(_ name: String) -> Bool {
        used.insert(name)
        return flags.contains(name)
    }

    /// The value of `--name value`, if given.
    mutating func option(_ name: String) -> String? {
        used.insert(name)
        return options[name]
    }

    /// The integer value of `--name N`, if given; throws when it is not a non-negative integer.
    mutating func integer(_ name: String) throws -> Int? {
        guard let text = option(name) else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw LibraryError.invalidRequest("--\(name) needs a non-negative whole number, not '\(text)'")
        }
        return value
    }

    /// Throws if a flag or option was given that the command did not look at.
    func rejectUnknown(command: String) throws {
        let unknown = flags.union(options.keys).subtracting(used).sorted()
        if let first = unknown.first {
            throw LibraryError.invalidRequest(
                "library \(command): unknown option --\(first); "
                    + "see `library help`")
        }
    }
}
