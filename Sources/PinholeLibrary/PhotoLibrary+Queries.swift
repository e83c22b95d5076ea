// Reading the library: queries, pages, counts, lookups by identifier, and observation.

import GRDB

extension PhotoLibrary {
    // MARK: Reading

    /// The assets matching `query`, in its order, limited to its page (after its cursor,
    /// then skipping its offset).
    public func assets(_ query: AssetQuery) throws -> [Asset] {
        let (text, arguments) = try selectStatement(for: query)
        let capacity = min(max(0, query.limit ?? 0), 1000)
        return try read { db in
            try Asset.all(in: db.cachedStatement(sql: text), arguments: arguments, capacity: capacity)
        }
    }

    /// Calls `body` with each asset matching `query`, in its order, one at a time from one
    /// snapshot: memory stays bounded however many match (`library list` at a million).
    /// `body` runs inside the read; it must not use the library.
    public func forEachAsset(_ query: AssetQuery, _ body: (Asset) throws -> Void) throws {
        let (text, arguments) = try selectStatement(for: query)
        try read { db in try Asset.forEach(in: db.makeStatement(sql: text), arguments: arguments, body) }
    }

    /// The SELECT that `assets(_:)` runs for `query`, with its arguments: what a benchmark
    /// compares the library against, as the same SQL through GRDB.
    @_spi(Benchmarks)
    public func selectStatement(for query: AssetQuery) throws -> (sql: String, arguments: StatementArguments)
    {
        var sql = QuerySQL(query)
        if let cursor = query.after { try sql.start(after: cursor) }
        return sql.select(limit: query.limit, offset: query.offset, keys: false)
    }

    /// The identifiers of the assets matching `query`, in its order, limited to its page.
    public func assetIDs(_ query: AssetQuery) throws -> [String] {
        var sql = QuerySQL(query)
        if let cursor = query.after { try sql.start(after: cursor) }
        let (text, arguments) = sql.selectIDs(limit: query.limit, offset: query.offset)
        return try read { db in try String.fetchAll(db.cachedStatement(sql: text), arguments: arguments) }
    }

    /// The number of assets matching `query` (its limit, offset and cursor are ignored).
    ///
    /// Counts by favorite, hidden, edited, camera and trash state are read from counts the
    /// database maintains on every change; other filters count the matching rows.
    public func count(_ query: AssetQuery) throws -> Int {
        try read { db in try Self.count(db, query) }
    }

    /// The SELECT `count(_:)` runs for `query` (the maintained tally's when its filters allow,
    /// else a count of the rows), so that a benchmark can time the same SQL.
    @_spi(Benchmarks)
    public func countStatement(for query: AssetQuery) -> (sql: String, arguments: StatementArguments) {
        AssetTally.count(query) ?? QuerySQL(query).count()
    }

    /// One page of `query`'s results (`pageSize` assets from `offset`, counted from its
    /// cursor if it has one) with the total count, both read from the same snapshot.
    ///
    /// An offset costs as many rows as it skips: to walk a large result, follow `next`.
    public func page(_ query: AssetQuery, offset: Int, pageSize: Int) throws -> AssetPage {
        var page = try fetchPage(query, offset: offset, pageSize: pageSize)
        page.offset = query.after == nil ? offset : nil
        return page
    }

    /// One page of `query`'s results: `pageSize` assets after `cursor` (from the start when
    /// nil), with the total count and the cursor of the next page, read from one snapshot.
    /// Every page costs the same, however far into the result it is.
    public func page(_ query: AssetQuery, after cursor: AssetCursor?, pageSize: Int) throws -> AssetPage {
        var page = try fetchPage(query.after(cursor), offset: 0, pageSize: pageSize)
        page.offset = cursor == nil ? 0 : nil
        return page
    }

    /// The cursor just after the asset `id` in `query`'s order: the page after it continues
    /// from there (`query.after(cursor)`). The asset need not match the query's filters (it
    /// may have been deleted since it was shown); for an album order it must be in the album.
    public func cursor(after id: String, in query: AssetQuery) throws -> AssetCursor {
        let sql = QuerySQL(query.unpaged)
        let (text, arguments) = sql.selectKeys(ofAsset: id)
        guard let row = try read({ db in try Row.fetchOne(db, sql: text, arguments: arguments) }) else {
            throw LibraryError.assetNotFound(id: id)
        }
        return sql.cursor(after: row)
    }

    /// The asset with identifier `id` (deleted or hidden included), or nil.
    public func asset(id: String) throws -> Asset? {
        try read { db in try Asset.fetchOne(db, key: id) }
    }

    /// The asset whose identifier is `idOrPrefix` or uniquely starts with it (at least 4
    /// characters), as typed on a console.
    public func asset(matching idOrPrefix: String) throws -> Asset? {
        if let exact = try asset(id: idOrPrefix) { return exact }
        guard idOrPrefix.count >= 4 else { return nil }
        let matches = try read { db in
            try Asset.fetchAll(
                db, sql: Asset.selectSQL + " WHERE asset.id >= ? AND asset.id < ? LIMIT 2",
                arguments: [idOrPrefix, idOrPrefix + "\u{10FFFF}"])
        }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The SELECT that `page(_:after:pageSize:)` runs (one asset more than the page, with
    /// the sort keys the next cursor is read from), with its arguments: what a benchmark
    /// compares the library against, as the same SQL through GRDB.
    @_spi(Benchmarks)
    public func pageStatement(for query: AssetQuery, after cursor: AssetCursor?, pageSize: Int) throws -> (
        sql: String, arguments: StatementArguments
    ) {
        var sql = QuerySQL(query.after(cursor))
        if let cursor { try sql.start(after: cursor) }
        return sql.select(limit: max(0, pageSize) + 1, offset: 0)
    }

    /// Reads a page and the total in one snapshot; fetches one asset more than the page to
    /// know whether a next page exists (an empty page, `pageSize` 0, has no next).
    private func fetchPage(_ query: AssetQuery, offset: Int, pageSize: Int) throws -> AssetPage {
        var sql = QuerySQL(query)
        if let cursor = query.after { try sql.start(after: cursor) }
        let size = max(0, pageSize)
        let (text, arguments) = sql.select(limit: size + 1, offset: offset)
        return try read { db in
            var assets: [Asset] = []
            assets.reserveCapacity(size)
            var last: AssetCursor?
            var next: AssetCursor?
            let statement = try db.cachedStatement(sql: text)
            let columns = AssetColumnPositions(columnNames: statement.columnNames)
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                if assets.count == size {
                    next = last
                    break
                }
                assets.append(try Asset(row: row, columns: columns))
                // The cursor of the page's last asset only (the next row, if any, says it is needed).
                if assets.count == size { last = sql.cursor(after: row) }
            }
            return AssetPage(
                assets: assets, offset: offset, totalCount: try Self.count(db, query.unpaged), next: next)
        }
    }

    /// Counts `query`'s matches inside a read: from the maintained tally when its filters allow.
    static func count(_ db: Database, _ query: AssetQuery) throws -> Int {
        let (text, arguments) = AssetTally.count(query) ?? QuerySQL(query).count()
        return try Int.fetchOne(db.cachedStatement(sql: text), arguments: arguments) ?? 0
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
