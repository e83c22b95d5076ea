// The two-stage shutter as a value-type state machine: half-press locks, full press captures, holding bursts.

import PinholeCore

/// Interprets the half-press and full-press buttons of a two-stage shutter (or a single
/// full-press button) and says what to do.
///
/// - Half press: focus and lock exposure (`lock`), held until both stages are released.
/// - Full press: capture the frame exposing at the press (`capture(at:)`, the first edge's
///   time, for zero shutter lag).
/// - Full press held past the hold time: burst, one shot at the hold and one at every repeat
///   (`burst(at:shot:)`), until release (`burstEnded(shots:)`).
///
/// A full press without a half press (a single-stage button) captures without locking.
public struct TwoStageShutter: Sendable, Hashable {
    /// What the appliance should do.
    public enum Action: Sendable, Hashable {
        /// Focus and lock exposure and white balance.
        case lock
        /// Let focus and exposure follow the scene again.
        case unlock
        /// Take one photo of the frame exposing at `at`.
        case capture(at: Instant)
        /// Take burst shot number `shot` (1, 2, …) of the frame exposing at `at`.
        case burst(at: Instant, shot: Int)
        /// The burst is over after `shots` shots.
        case burstEnded(shots: Int)
    }

    /// Whether the half-press stage is down.
    public private(set) var halfPressed = false
    /// Whether the full-press stage is down.
    public private(set) var fullPressed = false
    /// Whether focus and exposure are locked.
    public private(set) var locked = false
    /// Shots taken in the current burst (0 when not bursting).
    public private(set) var burstShots = 0

    /// Creates an idle shutter.
    public init() {}

    /// Whether a burst is under way.
    public var isBursting: Bool { burstShots > 0 }

    /// Feeds an event of the half-press button.
    public mutating func halfPress(_ event: ButtonEvent) -> [Action] {
        switch event {
        case .pressed:
            halfPressed = true
            guard !locked else { return [] }
            locked = true
            return [.lock]
        case .released:
            halfPressed = false
            return unlockIfIdle()
        case .held, .repeated:
            return []
        }
    }

    /// Feeds an event of the full-press (shutter) button.
    public mutating func fullPress(_ event: ButtonEvent) -> [Action] {
        switch event {
        case .pressed(let at):
            fullPressed = true
            burstShots = 0
            return [.capture(at: at)]
        case .held(let at), .repeated(let at, _):
            guard fullPressed else { return [] }
            burstShots += 1
            return [.burst(at: at, shot: burstShots)]
        case .released:
            fullPressed = false
            var actions: [Action] = []
            if burstShots > 0 { actions.append(.burstEnded(shots: burstShots)) }
            burstShots = 0
            return actions + unlockIfIdle()
        }
    }

    /// Ends a burst early (a chord took over the button); the shutter stays pressed.
    public mutating func stopBurst() -> [Action] {
        guard burstShots > 0 else { return [] }
        defer { burstShots = 0 }
        return [.burstEnded(shots: burstShots)]
    }

    private mutating func unlockIfIdle() -> [Action] {
        guard locked, !halfPressed, !fullPressed else { return [] }
        locked = false
        return [.unlock]
    }
}
