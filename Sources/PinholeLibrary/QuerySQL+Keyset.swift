// Keyset paging of queries: the WHERE condition "sorts after this cursor", and cursors read from rows.

import GRDB

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One ORDER BY term of a query.
struct OrderTerm {
    /// The SQL expression (`asset.created_ns`, `aa0.position`, …).
    var expression: String
    /// Ascending when true.
    var ascending: Bool
    /// Whether the expression can be NULL in the query's rows (SQLite sorts NULL first).
    var nullable: Bool
}

extension QuerySQL {
    /// Name of the i-th sort-key column that `select` appends after the asset's columns.
    static func keyColumn(_ index: Int) -> String { "pinhole_key_\(index)" }

    /// `expr AS pinhole_key_0, …`: the sort keys of each selected row.
    var keyColumns: String {
        order.enumerated().map { "\($0.element.expression) AS \(Self.keyColumn($0.offset))" }
            .joined(separator: ", ")
    }

    /// The ORDER BY terms as a cursor records them.
    var orderSignature: String { String(orderBy.dropFirst(" ORDER BY ".count)) }

    /// Restricts the query to rows that sort after `cursor`. Throws when the cursor belongs
    /// to another order.
    mutating func start(after cursor: AssetCursor) throws {
        guard cursor.order == orderSignature, cursor.keys.count == order.count else {
            throw LibraryError.invalidRequest(
                "the paging cursor belongs to another sort order (\(cursor.order)); "
                    + "start again from the first page")
        }
        let values = cursor.keys.map(\.databaseValue)
        let uniform = order.allSatisfy { $0.ascending == order[0].ascending && !$0.nullable }
        if uniform && !values.contains(where: \.isNull) {
            // One row-value comparison, which SQLite turns into an index range.
            let columns = order.map(\.expression).joined(separator: ", ")
            let marks = Array(repeating: "?", count: order.count).joined(separator: ", ")
            conditions.append("(\(columns)) \(order[0].ascending ? ">" : "<") (\(marks))")
            arguments.append(contentsOf: values.map { $0 as (any DatabaseValueConvertible)? })
            return
        }
        // Mixed directions or NULLs: after on the first key, or equal on it and after on the next…
        var alternatives: [String] = []
        var alternativeArguments: [(any DatabaseValueConvertible)?] = []
        for index in order.indices {
            var parts: [String] = []
            var partArguments: [(any DatabaseValueConvertible)?] = []
            for earlier in 0..<index {
                if values[earlier].isNull {
                    parts.append("\(order[earlier].expression) IS NULL")
                } else {
                    parts.append("\(order[earlier].expression) = ?")
                    partArguments.append(values[earlier])
                }
            }
            let term = order[index]
            switch (term.ascending, values[index].isNull) {
            case (true, true):
                parts.append("\(term.expression) IS NOT NULL")
            case (true, false):
                parts.append("\(term.expression) > ?")
                partArguments.append(values[index])
            case (false, true):
                continue  // NULL sorts last in descending order: nothing follows it on this key
            case (false, false):
                parts.append(
                    term.nullable
                        ? "(\(term.expression) < ? OR \(term.expression) IS NULL)" : "\(term.expression) < ?")
                partArguments.append(values[index])
            }
            alternatives.append("(" + parts.joined(separator: " AND ") + ")")
            alternativeArguments += partArguments
        }
        conditions.append(alternatives.isEmpty ? "0" : "(" + alternatives.joined(separator: " OR ") + ")")
        arguments += alternativeArguments
    }

    /// The cursor after the row `row` selected with `select` (which carries the key columns).
    func cursor(after row: Row) -> AssetCursor {
        AssetCursor(
            order: orderSignature,
            keys: order.indices.map { AssetCursor.Key(row[Self.keyColumn($0)] as DatabaseValue) })
    }

    /// SELECT of the sort keys of the asset with a given identifier (its position in this
    /// order, whether or not it matches the filters); for an album order, of its row in the album.
    func selectKeys(ofAsset id: String) -> (String, StatementArguments) {
        let join = " FROM " + source + (joins.isEmpty ? "" : " " + joins.joined(separator: " "))
        return (
            "SELECT " + keyColumns + join + " WHERE asset.id = ? LIMIT 1",
            StatementArguments(joinArguments + [id])
        )
    }
}

extension AssetCursor.Key {
    /// The key of a database value.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .int64(let integer): self = .integer(integer)
        case .string(let text): self = .text(text)
        case .double(let double): self = .real(double)
        case .blob(let data): self = .blob(Array(data))
        case .null: self = .null
        }
    }

    /// The value bound to a statement.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let integer): return integer.databaseValue
        case .real(let real): return real.databaseValue
        case .text(let text): return text.databaseValue
        case .blob(let bytes): return Data(bytes).databaseValue
        }
    }
}
