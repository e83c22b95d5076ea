// A reader for the TOML subset Pinhole's configuration and board profiles use, with line numbers.

import SystemPackage

/// A TOML value with the line it was written on.
public indirect enum TOMLValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int)
    /// A float.
    case float(Double)
    /// A boolean.
    case bool(Bool)
    /// An array.
    case array([TOMLValue])
    /// A table.
    case table(TOMLTable)

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a number"
        case .bool: return "true or false"
        case .array: return "an array"
        case .table: return "a table"
        }
    }
}

/// A TOML table: keys in file order, each with its value and line.
public struct TOMLTable: Sendable, Hashable {
    /// Entries in the order they were written.
    public private(set) var entries: [(key: String, value: TOMLValue, line: Int)] = []
    /// The line the table was opened on (0 for the root).
    public var line: Int

    /// Creates an empty table.
    public init(line: Int = 0) { self.line = line }

    /// The value for `key`.
    public subscript(key: String) -> TOMLValue? { entries.first { $0.key == key }?.value }

    /// The line `key` was written on (or the table's line).
    public func line(of key: String) -> Int { entries.first { $0.key == key }?.line ?? line }

    /// The keys in file order.
    public var keys: [String] { entries.map(\.key) }

    mutating func set(_ key: String, _ value: TOMLValue, line: Int) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index] = (key, value, line)
        } else {
            entries.append((key, value, line))
        }
    }

    /// Whether the two are equal.
    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        for entry in entries { hasher.combine(entry.key) }
    }
}

/// An error in a configuration file: which file, which line, and why.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The file.
    public var file: FilePath
    /// The 1-based line.
    public var line: Int
    /// What is wrong and what to do.
    public var reason: String

    /// Creates an error.
    public init(file: FilePath, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// A readable form, for messages and logs.
    public var description: String { "\(file):\(line): \(reason)" }
}

/// Parses TOML text (tables, arrays of tables, dotted table names, strings, integers, floats,
/// booleans, arrays and inline tables).
public enum TOMLDocument {
    /// The largest text parsed (configuration, board and state files are a few kilobytes).
    public static let maximumSize = 1 << 20

    /// Parses `text`; errors name `file` and the line. Text over `maximumSize` bytes, and
    /// nesting deeper than 32 arrays or inline tables (or dotted keys of more than 32 parts),
    /// are errors, so hostile input cannot exhaust memory or the stack.
    public static func parse(_ text: String, file: FilePath) throws -> TOMLTable {
        guard text.utf8.count <= maximumSize else {
            throw ConfigurationError(
                file: file, line: 0, reason: "larger than \(maximumSize >> 20) MB: not a configuration file")
        }
        var parser = TOMLParser(text: text, file: file)
        return try parser.parseDocument()
    }
}
