// Reading the library: queries, pages, counts, lookups by identifier, and observation.

import GRDB

extension PhotoLibrary {
    // MARK: Reading

    /// The assets matching `query`, in its order, limited to its page.
    public func assets(_ query: AssetQuery) throws -> [Asset] {
        let (sql, arguments) = QuerySQL(query).select(limit: query.limit, offset: query.offset)
        return try read { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map(Asset.init(row:)) }
    }

    /// The identifiers of the assets matching `query`, in its order, limited to its page.
    public func assetIDs(_ query: AssetQuery) throws -> [String] {
        let (sql, arguments) = QuerySQL(query).selectIDs(limit: query.limit, offset: query.offset)
        return try read { db in try String.fetchAll(db, sql: sql, arguments: arguments) }
    }

    /// The number of assets matching `query` (its limit and offset are ignored).
    public func count(_ query: AssetQuery) throws -> Int {
        let (sql, arguments) = QuerySQL(query).count()
        return try read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    /// One page of `query`'s results (`pageSize` assets from `offset`) with the total count,
    /// both read from the same snapshot.
    public func page(_ query: AssetQuery, offset: Int, pageSize: Int) throws -> AssetPage {
        let sql = QuerySQL(query)
        let (select, selectArguments) = sql.select(limit: pageSize, offset: offset)
        let (count, countArguments) = sql.count()
        return try read { db in
            let assets = try Row.fetchAll(db, sql: select, arguments: selectArguments).map(Asset.init(row:))
            let total = try Int.fetchOne(db, sql: count, arguments: countArguments) ?? 0
            return AssetPage(assets: assets, offset: offset, totalCount: total)
        }
    }

    /// The asset with identifier `id` (deleted or hidden included), or nil.
    public func asset(id: String) throws -> Asset? {
        try read { db in
            try Row.fetchOne(db, sql: Asset.selectSQL + " WHERE asset.id = ?", arguments: [id]).map(
                Asset.init(row:))
        }
    }

    /// The asset whose identifier is `idOrPrefix` or uniquely starts with it (at least 4
    /// characters), as typed on a console.
    public func asset(matching idOrPrefix: String) throws -> Asset? {
        if let exact = try asset(id: idOrPrefix) { return exact }
        guard idOrPrefix.count >= 4 else { return nil }
        let rows = try read { db in
            try Row.fetchAll(
                db, sql: Asset.selectSQL + " WHERE asset.id >= ? AND asset.id < ? LIMIT 2",
                arguments: [idOrPrefix, idOrPrefix + "\u{10FFFF}"])
        }
        return rows.count == 1 ? Asset(row: rows[0]) : nil
    }

    // MARK: Observation

    /// Calls `handler` after every committed change that inserts, removes or changes assets
    /// in `query`'s result (judged on its filters; limit and offset ignored), or that changes
    /// albums or folders. Keep the token: the observation stops when it is cancelled or released.
    public func observe(_ query: AssetQuery, _ handler: @escaping @Sendable (ChangeDetails) -> Void)
        -> ObservationToken
    {
        let key = observers.add(ObserverRegistry.Observer(query: query.unpaged, handler: handler))
        return ObservationToken { [observers] in observers.remove(key) }
    }
}
