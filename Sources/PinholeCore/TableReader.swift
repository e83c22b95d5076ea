// Typed reads of TOML tables with file and line in every error; unknown keys are rejected.

import SystemPackage

/// Reads typed keys from a table, remembering which were used so unknown keys are rejected.
public struct TableReader {
    /// The table read.
    public let table: TOMLTable
    /// The file it came from, for errors.
    public let file: FilePath
    /// Where the table sits (`[console]`), for errors; empty at the top level.
    public let context: String
    private var used: Set<String> = []

    /// Reads `table` of `file`; `context` names it in errors.
    public init(table: TOMLTable, file: FilePath, context: String) {
        self.table = table
        self.file = file
        self.context = context
    }

    private func error(_ key: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(file: file, line: table.line(of: key), reason: reason)
    }

    private func missing(_ key: String) -> ConfigurationError {
        let place = context.isEmpty ? "" : " in \(context)"
        return ConfigurationError(file: file, line: table.line, reason: "missing '\(key)'\(place)")
    }

    /// Marks `key` as known without reading it.
    public mutating func markUsed(_ key: String) { used.insert(key) }

    /// A string; nil when absent (an error when `required`).
    public mutating func string(_ key: String, required: Bool = false) throws -> String? {
        used.insert(key)
        guard let value = table[key] else {
            if required { throw missing(key) }
            return nil
        }
        guard case .string(let text) = value else {
            throw error(key, "'\(key)' must be a string, not \(value.typeName)")
        }
        return text
    }

    /// A boolean; nil when absent.
    public mutating func bool(_ key: String) throws -> Bool? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        guard case .bool(let flag) = value else {
            throw error(key, "'\(key)' must be true or false, not \(value.typeName)")
        }
        return flag
    }

    /// An integer, checked against `range`; nil when absent.
    public mutating func integer(_ key: String, in range: ClosedRange<Int>? = nil) throws -> Int? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        guard case .integer(let number) = value else {
            throw error(key, "'\(key)' must be an integer, not \(value.typeName)")
        }
        if let range, !range.contains(number) {
            throw error(key, "'\(key)' is \(number), outside \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// A number (integer or float), checked against `range`; nil when absent.
    public mutating func number(_ key: String, in range: ClosedRange<Double>? = nil) throws -> Double? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        let number: Double
        switch value {
        case .integer(let int): number = Double(int)
        case .float(let double): number = double
        default: throw error(key, "'\(key)' must be a number, not \(value.typeName)")
        }
        if let range, !range.contains(number) {
            throw error(key, "'\(key)' is \(number), outside \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// An array of strings; nil when absent.
    public mutating func strings(_ key: String) throws -> [String]? {
        used.insert(key)
        guard let value = table[key] else { return nil }
        guard case .array(let items) = value else {
            throw error(key, "'\(key)' must be an array of strings, not \(value.typeName)")
        }
        return try items.map { item in
            guard case .string(let text) = item else {
                throw error(key, "'\(key)' must be an array of strings, not one holding \(item.typeName)")
            }
            return text
        }
    }

    /// A sub-table; nil when absent (an error when `required`).
    public mutating func table(_ key: String, required: Bool = false) throws -> TOMLTable? {
        used.insert(key)
        guard let value = table[key] else {
            if required { throw missing(key) }
            return nil
        }
        guard case .table(let inner) = value else {
            throw error(key, "'\(key)' must be a table, not \(value.typeName)")
        }
        return inner
    }

    /// Throws for the first key that no read asked for.
    public func rejectUnknown() throws {
        for key in table.keys where !used.contains(key) {
            let place = context.isEmpty ? "" : " in \(context)"
            throw error(key, "unknown key '\(key)'\(place)")
        }
    }
}

extension TableReader {
    /// The `[section.KEY]` tables of `table`, where each KEY must name a case of `Key`: each
    /// with its case, its table and a reader for it. `noun` names a KEY in errors ("button").
    public static func namedTables<Key: RawRepresentable & CaseIterable>(
        _ table: TOMLTable?, section: String, noun: String, file: FilePath
    ) throws -> [(key: Key, table: TOMLTable, reader: TableReader)] where Key.RawValue == String {
        try (table?.entries ?? []).map { key, value, line in
            guard let named = Key(rawValue: key) else {
                throw ConfigurationError(
                    file: file, line: line,
                    reason: "unknown \(noun) '\(key)': expected one of "
                        + Key.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard case .table(let entry) = value else {
                throw ConfigurationError(
                    file: file, line: line, reason: "[\(section).\(key)] must be a table")
            }
            return (named, entry, TableReader(table: entry, file: file, context: "[\(section).\(key)]"))
        }
    }
}
