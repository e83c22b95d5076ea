// Cleanups that failed (a leftover file, a cache not written): recorded and reported to the owner's log, never failing the change they follow.

import Synchronization

/// The library's record of the cleanups that failed: the last few, their count, and where
/// each is reported as it happens.
final class CleanupFailures: Sendable {
    private struct State {
        var recent: [String] = []
        var count = 0
        var reporter: (@Sendable (String) -> Void)?
    }

    private let state = Mutex(State())
    /// How many are kept for `PhotoLibrary.cleanupFailures`.
    static let kept = 20

    /// Records `text` and reports it.
    func record(_ text: String) {
        let reporter = state.withLock { state -> (@Sendable (String) -> Void)? in
            state.recent.append(text)
            if state.recent.count > Self.kept { state.recent.removeFirst() }
            state.count += 1
            return state.reporter
        }
        reporter?(text)
    }

    /// The last ones recorded, oldest first, and how many there were in all.
    var snapshot: (recent: [String], count: Int) { state.withLock { ($0.recent, $0.count) } }

    /// Sets where each is reported from now on.
    func report(to reporter: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.reporter = reporter }
    }
}

extension PhotoLibrary {
    /// Reports every cleanup that fails from now on (a leftover file that could not be
    /// removed, a thumbnail that could not be cached) to `reporter`, on the thread that did
    /// the work: `pinhole run` logs them. The change they follow has succeeded; each text says
    /// what is left and what removes it.
    public func reportCleanupFailures(to reporter: @escaping @Sendable (String) -> Void) {
        cleanup.report(to: reporter)
    }

    /// The last 20 cleanups that failed, oldest first.
    public var cleanupFailures: [String] { cleanup.snapshot.recent }

    /// Cleanups that failed since the library was opened.
    public var cleanupFailureCount: Int { cleanup.snapshot.count }

    /// Runs `body`; when it throws, records "could not WHAT (ERROR): CONSEQUENCE" instead.
    /// Returns whether it succeeded.
    @discardableResult
    func cleaning(_ what: String, consequence: String, _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch {
            cleanup.record("could not \(what) (\(error)): \(consequence)")
            return false
        }
    }
}
