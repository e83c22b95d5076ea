// Computes observers' change details inside a write transaction, before and after the change.

import GRDB

/// Tracks which assets and collections a transaction touches and whether each observed
/// query's membership changed. Used only inside one write transaction.
final class ChangeTracker {
    private let observers: [(key: UInt64, observer: ObserverRegistry.Observer)]
    private var touched: [String] = []
    private var touchedSet: Set<String> = []
    private var before: [UInt64: Set<String>] = [:]
    private var collections: [String] = []
    private var collectionSet: Set<String> = []

    private let policy: ChangeRecording.Policy

    init(
        observers: [(key: UInt64, observer: ObserverRegistry.Observer)],
        policy: ChangeRecording.Policy = ChangeRecording.defaultPolicy
    ) {
        self.observers = observers
        self.policy = policy
    }

    /// Declares that `ids` are about to change; call before modifying them.
    func willChange(_ db: Database, assets ids: [String]) throws {
        let fresh = ids.filter { touchedSet.insert($0).inserted }
        guard !fresh.isEmpty else { return }
        touched += fresh
        for (key, observer) in observers {
            before[key, default: []].formUnion(try Self.members(db, observer.query, fresh))
        }
    }

    /// Declares that albums or folders with `ids` were created, changed or removed.
    func collectionsChanged(_ ids: [String]) {
        for id in ids where collectionSet.insert(id).inserted { collections.append(id) }
    }

    /// The change details of each observer, computed after the changes (still inside the
    /// transaction). First checks that every asset the transaction changed was announced
    /// (`ChangeRecording`); one that was not fails the write, or, in release builds, is
    /// reported to every observer as changed.
    func finish(_ db: Database) throws -> [(key: UInt64, details: ChangeDetails)] {
        let unannounced = try ChangeRecording.takeChanged(db).subtracting(touchedSet).sorted()
        if !unannounced.isEmpty, policy == .fail { throw LibraryError.unannouncedChange(ids: unannounced) }
        guard !touched.isEmpty || !collections.isEmpty || !unannounced.isEmpty else { return [] }
        var result: [(UInt64, ChangeDetails)] = []
        for (key, observer) in observers {
            let after = touched.isEmpty ? [] : try Self.members(db, observer.query, touched)
            let old = before[key] ?? []
            let details = ChangeDetails(
                query: observer.query,
                insertedIDs: touched.filter { after.contains($0) && !old.contains($0) },
                removedIDs: touched.filter { old.contains($0) && !after.contains($0) },
                changedIDs: touched.filter { old.contains($0) && after.contains($0) } + unannounced,
                collectionIDs: collections)
            if !details.isEmpty || !collections.isEmpty { result.append((key, details)) }
        }
        return result
    }

    /// Which of `ids` match `query`'s filters, in chunks of at most 500 identifiers.
    private static func members(_ db: Database, _ query: AssetQuery, _ ids: [String]) throws -> Set<String> {
        let sql = QuerySQL(query)
        var result: Set<String> = []
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(ids.count, start + 500)])
            let (text, arguments) = sql.members(among: chunk)
            result.formUnion(try String.fetchAll(db, sql: text, arguments: arguments))
            start += 500
        }
        return result
    }
}
