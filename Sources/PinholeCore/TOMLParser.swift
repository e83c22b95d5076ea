// The TOML parser behind TOMLDocument: a line-aware recursive-descent scanner.

import SystemPackage

/// Recursive-descent TOML parser over the text's Unicode scalars.
struct TOMLParser {
    private let scalars: [Unicode.Scalar]
    private let file: FilePath
    private var index = 0
    private var line = 1
    /// Arrays and inline tables open around the value being parsed.
    private var depth = 0

    /// The deepest nesting of arrays and inline tables, and the longest dotted key, accepted:
    /// far beyond any configuration, far below what would overflow the stack.
    static let maximumDepth = 32

    init(text: String, file: FilePath) {
        self.scalars = Array(text.unicodeScalars)
        self.file = file
    }

    private func fail(_ reason: String, line: Int? = nil) -> ConfigurationError {
        ConfigurationError(file: file, line: line ?? self.line, reason: reason)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func advance() {
        if current == "\n" { line += 1 }
        index += 1
    }

    private mutating func skipSpaces() {
        while let c = current, c == " " || c == "\t" { advance() }
    }

    private mutating func skipComment() {
        if current == "#" { while let c = current, c != "\n" { advance() } }
    }

    /// Skips blank space, newlines and comments.
    private mutating func skipTrivia() {
        while let c = current {
            if c == " " || c == "\t" || c == "\r" || c == "\n" {
                advance()
            } else if c == "#" {
                skipComment()
            } else {
                break
            }
        }
    }

    private mutating func expectEndOfLine() throws {
        skipSpaces()
        skipComment()
        if current == "\r" { advance() }
        if let c = current, c != "\n" {
            throw fail("unexpected '\(c)' after the value: one key = value per line")
        }
    }

    mutating func parseDocument() throws -> TOMLTable {
        var root = TOMLTable()
        var path: [String] = []
        var isArrayElement = false
        var definedTables: Set<String> = []
        while true {
            skipTrivia()
            guard let c = current else { break }
            if c == "[" {
                let tableLine = line
                advance()
                let array = current == "["
                if array { advance() }
                skipSpaces()
                let names = try parseKeyPath()
                skipSpaces()
                guard current == "]" else { throw fail("table header is missing its closing ']'") }
                advance()
                if array {
                    guard current == "]" else { throw fail("array-of-tables header is missing ']]'") }
                    advance()
                }
                try expectEndOfLine()
                let joined = names.joined(separator: ".")
                if !array {
                    if definedTables.contains(joined) { throw fail("table [\(joined)] is defined twice") }
                    definedTables.insert(joined)
                }
                try Self.open(&root, path: names, array: array, line: tableLine, file: file)
                path = names
                isArrayElement = array
                continue
            }
            let keyLine = line
            let keys = try parseKeyPath()
            skipSpaces()
            guard current == "=" else {
                throw fail("expected '=' after key '\(keys.joined(separator: "."))'")
            }
            advance()
            skipSpaces()
            let value = try parseValue()
            try expectEndOfLine()
            try Self.assign(
                &root, tablePath: path, inArray: isArrayElement, keys: keys, value: value,
                line: keyLine, file: file)
        }
        return root
    }

    private mutating func parseKeyPath() throws -> [String] {
        var names: [String] = []
        while true {
            skipSpaces()
            names.append(try parseKey())
            skipSpaces()
            guard names.count <= Self.maximumDepth else {
                throw fail("a dotted key of more than \(Self.maximumDepth) parts")
            }
            if current == "." { advance() } else { break }
        }
        return names
    }

    private mutating func parseKey() throws -> String {
        if current == "\"" { return try parseString() }
        var key = ""
        while let c = current, c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" {
            key.unicodeScalars.append(c)
            advance()
        }
        guard !key.isEmpty else {
            throw fail(
                current.map { "unexpected '\($0)': expected a key" }
                    ?? "unexpected end of file: expected a key")
        }
        return key
    }

    private mutating func parseString() throws -> String {
        let quote = current!
        advance()
        var result = ""
        while true {
            guard let c = current, c != "\n" else { throw fail("string is not closed on this line") }
            advance()
            if c == quote { return result }
            if c == "\\" && quote == "\"" {
                guard let e = current else { throw fail("string ends in a backslash") }
                advance()
                switch e {
                case "n": result += "\n"
                case "t": result += "\t"
                case "\\": result += "\\"
                case "\"": result += "\""
                case "r": result += "\r"
                default: throw fail("unknown escape '\\\(e)' in string")
                }
            } else {
                result.unicodeScalars.append(c)
            }
        }
    }

    private mutating func parseValue() throws -> TOMLValue {
        guard let c = current else { throw fail("missing value at end of file") }
        switch c {
        case "\"", "'": return .string(try parseString())
        case "[", "{":
            guard depth < Self.maximumDepth else {
                throw fail("arrays and inline tables nested more than \(Self.maximumDepth) deep")
            }
            depth += 1
            defer { depth -= 1 }
            return c == "[" ? try parseArray() : try parseInlineTable()
        default: return try parseBare()
        }
    }

    private mutating func parseArray() throws -> TOMLValue {
        advance()
        var items: [TOMLValue] = []
        while true {
            skipTrivia()
            if current == "]" { advance(); return .array(items) }
            items.append(try parseValue())
            skipTrivia()
            if current == "," { advance(); continue }
            if current == "]" { advance(); return .array(items) }
            throw fail("expected ',' or ']' in array")
        }
    }

    private mutating func parseInlineTable() throws -> TOMLValue {
        let tableLine = line
        advance()
        var table = TOMLTable(line: tableLine)
        skipSpaces()
        if current == "}" { advance(); return .table(table) }
        while true {
            skipSpaces()
            let key = try parseKey()
            skipSpaces()
            guard current == "=" else { throw fail("expected '=' after '\(key)' in inline table") }
            advance()
            skipSpaces()
            table.set(key, try parseValue(), line: line)
            skipSpaces()
            if current == "," { advance(); continue }
            if current == "}" { advance(); return .table(table) }
            throw fail("expected ',' or '}' in inline table")
        }
    }

    private mutating func parseBare() throws -> TOMLValue {
        var word = ""
        while let c = current,
            !(c == " " || c == "\t" || c == "\n" || c == "\r" || c == "," || c == "]"
                || c == "}" || c == "#")
        {
            word.unicodeScalars.append(c)
            advance()
        }
        if word == "true" { return .bool(true) }
        if word == "false" { return .bool(false) }
        let digits = String(word.filter { $0 != "_" })
        if let int = Int(digits) { return .integer(int) }
        if let double = Double(digits), !digits.isEmpty { return .float(double) }
        if word.isEmpty { throw fail("missing value after '='") }
        throw fail("'\(word)' is not a value: put text in double quotes")
    }

    // MARK: Building the tree

    private static func open(_ root: inout TOMLTable, path: [String], array: Bool, line: Int, file: FilePath)
        throws
    {
        try modify(&root, path: Array(path.dropLast()), line: line, file: file) { parent in
            let name = path.last!
            if array {
                var items: [TOMLValue] = []
                if let existing = parent[name] {
                    guard case .array(let current) = existing else {
                        throw ConfigurationError(
                            file: file, line: line, reason: "'\(name)' is not an array of tables")
                    }
                    items = current
                }
                items.append(.table(TOMLTable(line: line)))
                parent.set(name, .array(items), line: line)
            } else if parent[name] == nil {
                parent.set(name, .table(TOMLTable(line: line)), line: line)
            }
        }
    }

    private static func assign(
        _ root: inout TOMLTable, tablePath: [String], inArray: Bool, keys: [String],
        value: TOMLValue, line: Int, file: FilePath
    ) throws {
        try modify(&root, path: tablePath + keys.dropLast(), line: line, file: file) { table in
            let key = keys.last!
            if table[key] != nil {
                throw ConfigurationError(file: file, line: line, reason: "key '\(key)' is set twice")
            }
            table.set(key, value, line: line)
        }
    }

    /// Applies `body` to the table at `path`, descending into the last element of arrays of tables.
    private static func modify(
        _ table: inout TOMLTable, path: [String], line: Int, file: FilePath,
        _ body: (inout TOMLTable) throws -> Void
    ) throws {
        guard let head = path.first else { return try body(&table) }
        let rest = Array(path.dropFirst())
        switch table[head] {
        case nil:
            var child = TOMLTable(line: line)
            try modify(&child, path: rest, line: line, file: file, body)
            table.set(head, .table(child), line: line)
        case .table(var child)?:
            try modify(&child, path: rest, line: line, file: file, body)
            table.set(head, .table(child), line: table.line(of: head))
        case .array(var items)?:
            guard case .table(var last)? = items.last else {
                throw ConfigurationError(file: file, line: line, reason: "'\(head)' is not a table")
            }
            try modify(&last, path: rest, line: line, file: file, body)
            items[items.count - 1] = .table(last)
            table.set(head, .array(items), line: table.line(of: head))
        case let other?:
            throw ConfigurationError(
                file: file, line: line, reason: "'\(head)' is \(other.typeName), not a table")
        }
    }
}
