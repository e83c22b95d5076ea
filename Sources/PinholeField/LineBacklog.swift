// A bound on lines read on another thread and waiting for the event loop.

import PinholeSystem

/// Counts lines handed from a reader thread to the loop, and refuses more than `limit` at once:
/// a peer that sends faster than the loop handles (a flood on gpsd's port) costs at most
/// `limit` queued lines, and every line refused is counted, never silently lost.
final class LineBacklog: @unchecked Sendable {
    /// The most lines waiting at once.
    let limit: Int
    private let lock = ConditionLock()
    private var waiting = 0
    private var refused = 0

    /// A backlog of at most `limit` lines.
    init(limit: Int) { self.limit = limit }

    /// Any thread: whether a new line may be queued (then `handled()` must follow it).
    func admit() -> Bool {
        lock.withLock {
            guard waiting < limit else {
                refused += 1
                return false
            }
            waiting += 1
            return true
        }
    }

    /// A queued line was handled.
    func handled() { lock.withLock { waiting -= 1 } }

    /// Lines refused so far.
    var refusedCount: Int { lock.withLock { refused } }
}
