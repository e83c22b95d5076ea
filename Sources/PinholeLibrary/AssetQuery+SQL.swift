// Translation of typed asset queries into SQL over the `asset` table.

import GRDB

/// SQL pieces of a query: joins, WHERE conditions, ORDER BY and their arguments.
struct QuerySQL {
    var source = "asset"
    var joins: [String] = []
    var joinArguments: [(any DatabaseValueConvertible)?] = []
    var conditions: [String] = []
    var arguments: [(any DatabaseValueConvertible)?] = []
    var orderBy: String = ""
    var albumAlias: String?
    /// The ORDER BY terms, the tie-breaker last.
    var order: [OrderTerm] = []

    /// Builds the SQL pieces of `query`.
    init(_ query: AssetQuery) {
        var hasHiddenFilter = false
        for (index, filter) in query.filters.enumerated() {
            switch filter {
            case let .created(from, to):
                if let from {
                    conditions.append("asset.created_ns >= ?"); arguments.append(from.epochNanoseconds)
                }
                if let to { conditions.append("asset.created_ns < ?"); arguments.append(to.epochNanoseconds) }
            case let .addedSince(time):
                conditions.append("asset.added_ns >= ?"); arguments.append(time.epochNanoseconds)
            case let .camera(id):
                conditions.append("asset.camera_id = ?"); arguments.append(id)
            case let .model(model):
                conditions.append("asset.model = ?"); arguments.append(model)
            case let .album(id):
                // Joins come before WHERE; their arguments must too, so keep them apart.
                let alias = "aa\(index)"
                if albumAlias == nil {
                    // The first album drives the query: walk its photos in album order, then
                    // look each asset up (CROSS JOIN fixes that order for SQLite's planner).
                    source =
                        "album_asset \(alias) CROSS JOIN asset ON asset.id = \(alias).asset_id AND \(alias).album_id = ?"
                    albumAlias = alias
                } else {
                    joins.append(
                        "JOIN album_asset \(alias) ON \(alias).asset_id = asset.id AND \(alias).album_id = ?")
                }
                joinArguments.append(id)
            case let .favorite(value):
                conditions.append(value ? "asset.favorite = 1" : "asset.favorite = 0")
            case let .hidden(value):
                hasHiddenFilter = true
                conditions.append(value ? "asset.hidden = 1" : "asset.hidden = 0")
            case let .orientation(orientation):
                conditions.append("asset.orientation = ?"); arguments.append(orientation.rawValue)
            case let .edited(value):
                conditions.append(value ? "asset.edit_revision > 0" : "asset.edit_revision = 0")
            case let .hasLocation(value):
                conditions.append(value ? "asset.latitude IS NOT NULL" : "asset.latitude IS NULL")
            case let .clockTrust(trust):
                if trust == .unknown {
                    conditions.append("(asset.clock_trust IS NULL OR asset.clock_trust = ?)")
                } else {
                    conditions.append("asset.clock_trust = ?")
                }
                arguments.append(trust.rawValue)
            case let .near(latitude, longitude, kilometres):
                let area = GeoDistance.boundingBox(
                    latitude: latitude, longitude: longitude, kilometres: kilometres)
                conditions.append("asset.latitude BETWEEN ? AND ?")
                arguments += [area.south, area.north]
                if let west = area.west, let east = area.east {
                    conditions.append(
                        west <= east
                            ? "asset.longitude BETWEEN ? AND ?"
                            : "(asset.longitude >= ? OR asset.longitude <= ?)")
                    arguments += [west, east]
                }
                conditions.append("\(GeoDistance.sqlFunction)(asset.latitude, asset.longitude, ?, ?) <= ?")
                arguments += [latitude, longitude, kilometres]
            case let .mediaType(type):
                conditions.append("asset.media_type = ?"); arguments.append(type.rawValue)
            case let .flashFired(value):
                conditions.append("asset.flash_fired = ?"); arguments.append(value)
            case let .ids(ids):
                if ids.isEmpty {
                    conditions.append("0")
                } else {
                    conditions.append(
                        "asset.id IN (" + Array(repeating: "?", count: ids.count).joined(separator: ",") + ")"
                    )
                    arguments.append(contentsOf: ids.map { $0 as (any DatabaseValueConvertible)? })
                }
            }
        }
        if !hasHiddenFilter && !query.includesHidden { conditions.insert("asset.hidden = 0", at: 0) }
        switch query.trash {
        case .excluded: conditions.insert("asset.deleted_ns IS NULL", at: 0)
        case .only: conditions.insert("asset.deleted_ns IS NOT NULL", at: 0)
        case .included: break
        }
        for sort in query.sort {
            let column: String
            switch sort.key {
            case .created: column = "asset.created_ns"
            case .added: column = "asset.added_ns"
            case .modified: column = "asset.modified_ns"
            case .deleted: column = "asset.deleted_ns"
            case .fileSize: column = "asset.file_size"
            case .albumOrder: column = albumAlias.map { "\($0).position" } ?? "asset.created_ns"
            }
            order.append(
                OrderTerm(
                    expression: column, ascending: sort.ascending,
                    nullable: column == "asset.deleted_ns" && query.trash != .only))
        }
        // The tie-breaker makes the order total, so a keyset cursor names one position. In
        // album order it is the album row's photo id, which the album's position index
        // already holds in order (no sort step); elsewhere insertion order.
        let lastAscending = query.sort.last?.ascending ?? true
        let tie =
            query.sort.first?.key == .albumOrder ? albumAlias.map { "\($0).asset_id" } : nil
        order.append(OrderTerm(expression: tie ?? "asset.rowid", ascending: lastAscending, nullable: false))
        orderBy =
            " ORDER BY "
            + order.map { $0.expression + ($0.ascending ? " ASC" : " DESC") }
            .joined(separator: ", ")
    }

    /// All arguments in statement order: joins first, then conditions.
    private var allArguments: StatementArguments { StatementArguments(joinArguments + arguments) }

    private var fromClause: String {
        " FROM " + source + (joins.isEmpty ? "" : " " + joins.joined(separator: " "))
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
    }

    /// SELECT of whole assets, ordered and paged; with `keys`, followed by their sort keys
    /// (`keyColumns`, which a page's cursor is read from).
    func select(limit: Int?, offset: Int, keys: Bool = true) -> (String, StatementArguments) {
        var sql = "SELECT asset.*" + (keys ? ", " + keyColumns : "") + fromClause + orderBy
        if let limit { sql += " LIMIT \(max(0, limit))" } else if offset > 0 { sql += " LIMIT -1" }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return (sql, allArguments)
    }

    /// SELECT of identifiers only, ordered and paged.
    func selectIDs(limit: Int?, offset: Int) -> (String, StatementArguments) {
        var sql = "SELECT asset.id" + fromClause + orderBy
        if let limit { sql += " LIMIT \(max(0, limit))" } else if offset > 0 { sql += " LIMIT -1" }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return (sql, allArguments)
    }

    /// COUNT of all matches (no paging).
    func count() -> (String, StatementArguments) {
        ("SELECT COUNT(*)" + fromClause, allArguments)
    }

    /// Which of `ids` match (no paging, no order): used to compute observers' change details.
    func members(among ids: [String]) -> (String, StatementArguments) {
        let list = "asset.id IN (" + Array(repeating: "?", count: ids.count).joined(separator: ",") + ")"
        let whereClause = " WHERE " + (conditions + [list]).joined(separator: " AND ")
        let join = " FROM " + source + (joins.isEmpty ? "" : " " + joins.joined(separator: " "))
        return (
            "SELECT asset.id" + join + whereClause,
            StatementArguments(joinArguments + arguments + ids.map { $0 as (any DatabaseValueConvertible)? })
        )
    }
}
