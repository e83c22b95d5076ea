// The recorder's queue of frames waiting for the encoder: taken on the loop, freed on the lane.

import Synchronization

/// Counts the frames handed to the recorder's lane and not yet finished there. The loop takes
/// a slot for each frame it hands over; the lane frees it the moment it has finished the frame
/// (encoded and written), not when the loop later gets round to the frame's completion, so a
/// busy loop cannot hold slots while the encoder keeps up.
final class FrameSlots: Sendable {
    /// Frames that may wait or be encoded at once.
    let limit: Int
    private let taken = Atomic<Int>(0)

    /// Slots for `limit` frames (at least one).
    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a slot for a frame (on the loop); false when all `limit` are taken (the frame is
    /// dropped). Only the loop takes slots, so the check and the increment need no exchange:
    /// the lane can only lower the count meanwhile.
    func take() -> Bool {
        guard taken.load(ordering: .acquiring) < limit else { return false }
        taken.add(1, ordering: .acquiringAndReleasing)
        return true
    }

    /// Frees a frame's slot (on the lane, when the frame is finished there).
    func free() { taken.subtract(1, ordering: .acquiringAndReleasing) }

    /// Frames handed over and not yet finished.
    var inUse: Int { taken.load(ordering: .acquiring) }
}
