// The capture engine's standby bookkeeping: asleep or not, when it woke, and what the wake cost.

import PinholeCore

/// Whether the camera is streaming, and the cost of its last wake.
struct EngineStandby {
    /// The camera is open but not streaming.
    var asleep = false
    /// When the last wake started (nil: no wake since the camera started).
    var wokeAt: Instant?
    /// When the first frame after that wake arrived.
    var firstFrameAt: Instant?
    /// Time from the last wake to its first usable frame.
    var lastWakeCost: Duration?
    /// Wakes since start.
    var wakes = 0

    /// A frame arrived at `now`.
    mutating func frameArrived(at now: Instant) {
        guard let wokeAt, firstFrameAt == nil else { return }
        firstFrameAt = now
        lastWakeCost = now - wokeAt
    }

    /// A press that came before the first frame after a wake was served by waking the camera:
    /// its selection says so, with the wake's cost.
    func selection(_ selection: FrameSelection, pressedAt: Instant) -> (FrameSelection, Duration?) {
        guard let wokeAt, let firstFrameAt, pressedAt < firstFrameAt, selection == .nextAfterPress else {
            return (selection, nil)
        }
        return (.afterWake, firstFrameAt - wokeAt)
    }
}
