// What the appliance does when its storage runs low: stop taking photos, or recycle the oldest.

/// A store that can make room by removing its oldest unprotected photos.
public protocol StorageRecycling: Sendable {
    /// Removes photos until `bytes` are free (or nothing more may go); returns one log line
    /// per photo removed. Called on the loop's worker thread.
    func recycle(untilFree bytes: Int64) throws -> [String]
}

/// `[library] when_full` and its state.
public final class StoragePolicy {
    /// What happens when storage is low.
    public enum WhenFull: String, Sendable, CaseIterable {
        /// New photos are refused once the reserve is reached (nothing is removed).
        case stop
        /// The oldest photos that are neither favourites nor in an album make room.
        case recycle
    }

    /// The policy in force.
    public var whenFull = WhenFull.stop
    /// Photos removed to make room since start.
    public package(set) var recycled = 0
    /// Whether a recycling pass is under way.
    package var recycling = false
    /// Whether the last pass found nothing more to remove (reported once).
    package var exhausted = false

    package init() {}
}
