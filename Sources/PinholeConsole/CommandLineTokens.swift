// Splits a console line into words, honouring double quotes.

/// Splits `line` into words; "double quoted" words may contain spaces.
public func tokenize(_ line: String) throws -> [String] {
    var words: [String] = []
    var current = ""
    var inQuotes = false
    var hasWord = false
    for character in line {
        if character == "\"" {
            inQuotes.toggle()
            hasWord = true
        } else if character.isWhitespace && !inQuotes {
            if hasWord { words.append(current) }
            current = ""
            hasWord = false
        } else {
            current.append(character)
            hasWord = true
        }
    }
    if inQuotes { throw ConsoleError.usage("unterminated quote") }
    if hasWord { words.append(current) }
    return words
}

/// Errors the console answers with: a status code and a message.
public enum ConsoleError: Error, CustomStringConvertible {
    /// The command is malformed (status 64).
    case usage(String)
    /// The command exists but cannot run here or now (status 69).
    case unavailable(String)
    /// The action failed (status 70).
    case failed(String)
    /// The command needs the PIN (status 77).
    case locked(String)

    /// The numeric status (sysexits-style).
    public var status: Int {
        switch self {
        case .usage: return 64
        case .unavailable: return 69
        case .failed: return 70
        case .locked: return 77
        }
    }

    /// The message, without the status.
    public var description: String {
        switch self {
        case .usage(let why), .unavailable(let why), .failed(let why), .locked(let why): return why
        }
    }
}
