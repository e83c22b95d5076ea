// Change observers: registrations, tokens and the change details they receive.

import Synchronization

/// What changed in the result of an observed query after one committed change.
///
/// Membership is judged on the query's filters and trash scope (its limit and offset are
/// ignored): refetch the page you show to see the new order.
public struct ChangeDetails: Sendable, Hashable {
    /// The observed query.
    public var query: AssetQuery
    /// Assets that now match and did not before (new photos, restored, added to the album…).
    public var insertedIDs: [String]
    /// Assets that matched and no longer do (deleted, removed from the album, purged…).
    public var removedIDs: [String]
    /// Assets that still match but whose record changed (favorite, edit, …).
    public var changedIDs: [String]
    /// Albums and folders created, changed or removed by the same change.
    public var collectionIDs: [String]

    /// True when nothing in the query's result changed.
    public var isEmpty: Bool { insertedIDs.isEmpty && removedIDs.isEmpty && changedIDs.isEmpty }
}

/// Keeps an observation alive: call `cancel()` (or drop the token) to stop it.
public final class ObservationToken: Sendable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) { cancellation = Mutex(cancel) }

    /// Stops the observation; the handler is not called afterwards. Idempotent.
    public func cancel() {
        let action = cancellation.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        action?()
    }

    deinit { cancel() }
}

/// The set of registered observers.
final class ObserverRegistry: Sendable {
    struct Observer: Sendable {
        var query: AssetQuery
        var handler: @Sendable (ChangeDetails) -> Void
    }

    private let state = Mutex<(next: UInt64, observers: [UInt64: Observer])>((0, [:]))

    /// Registers `observer` and returns its key.
    func add(_ observer: Observer) -> UInt64 {
        state.withLock { state in
            state.next += 1
            state.observers[state.next] = observer
            return state.next
        }
    }

    /// Unregisters the observer with `key`.
    func remove(_ key: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: key) }
    }

    /// A snapshot of the registered observers.
    var snapshot: [(key: UInt64, observer: Observer)] {
        state.withLock { state in state.observers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// Whether `key` is still registered (a handler is not called after cancellation).
    func contains(_ key: UInt64) -> Bool { state.withLock { $0.observers[key] != nil } }
}
