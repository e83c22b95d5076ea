// Turns raw, bouncing line edges into press / release / hold / repeat, on the loop's clock.

import PinholeCore

/// Debounces one button and recognises holds.
///
/// A change is accepted once the line has stayed at the new level for the debounce period;
/// the event carries the time of the first edge of the change, so a bounce storm gives one
/// press stamped with the moment the contact first closed. The debounce runs on the loop's
/// clock, so simulation and hardware behave the same; the kernel may debounce as well (see
/// `ButtonWiring.kernelDebounce`), but its debounced edge is stamped when its debounce
/// completed, which is why the shutter relies on this first-edge stamp instead.
public final class ButtonInterpreter {
    /// Debounce period (software; the kernel may debounce as well).
    public let debounce: Duration
    /// Time until `held`.
    public let holdTime: Duration
    /// Interval of `repeated` after `held` (nil: no repeat).
    public let repeatInterval: Duration?

    private let loop: EventLoop
    private let onEvent: (ButtonEvent) -> Void
    private var stable = false
    /// Raw edges not yet settled, oldest first.
    private var pending: [(active: Bool, at: Instant)] = []
    /// Windows waited in a row because the line disagreed with the last delivered edge.
    private var waitsForReports = 0
    /// After this many windows the line's reading is taken as an edge of its own (reports lost).
    private static let maximumWaitsForReports = 20
    private var debounceTimer: TimerID?
    private var holdTimer: TimerID?
    private var pressedAt: Instant?
    private var repeats = 0

    /// Reads the line's level now (true = active), when the backend can. On a busy board the
    /// kernel's edge reports can reach the loop long after the contact moved; when a debounce
    /// window closes and the line disagrees with the last report, more reports are on their
    /// way, and the interpreter waits for them before deciding.
    public var readLevel: (() -> Bool?)?

    /// Creates an interpreter delivering events to `onEvent` on the loop.
    public init(
        loop: EventLoop, debounce: Duration, holdTime: Duration = .milliseconds(800),
        repeatInterval: Duration? = .milliseconds(250), onEvent: @escaping (ButtonEvent) -> Void
    ) {
        self.loop = loop
        self.debounce = debounce
        self.holdTime = holdTime
        self.repeatInterval = repeatInterval
        self.onEvent = onEvent
    }

    /// Whether the button is (debounced) pressed.
    public var isPressed: Bool { stable }

    /// Whether a change is waiting out the debounce period.
    public var isSettling: Bool { debounceTimer != nil }

    /// Feeds one raw edge.
    public func edge(_ edge: LineEdge) {
        if debounce == .zero {
            if edge.active != stable { accept(edge.active, at: edge.timestamp) }
            return
        }
        pending.append((edge.active, edge.timestamp))
        // The window counts from when the loop learns of the edge, not from the kernel's
        // timestamp: edges can reach the loop late, and the rest of a bounce may still be
        // on its way. Decisions use the timestamps (see `settle`).
        waitsForReports = 0
        openWindow(from: max(edge.timestamp, loop.now))
    }

    private func openWindow(from start: Instant) {
        if let debounceTimer { loop.cancel(debounceTimer) }
        debounceTimer = loop.schedule(at: start + debounce) { [weak self] in self?.windowClosed() }
    }

    private func windowClosed() {
        debounceTimer = nil
        let reported = pending.last?.active ?? stable
        if let reading = readLevel?(), reading != reported {
            if waitsForReports < Self.maximumWaitsForReports {
                waitsForReports += 1
                openWindow(from: loop.now)  // the line moved again: its reports are still coming
                return
            }
            pending.append((reading, loop.now))  // reports lost: believe the line
        }
        settle(upTo: loop.now)
    }

    /// Replays the pending edges by their kernel timestamps: a level held for the debounce
    /// period is a change, stamped with the first edge that left the previous stable level.
    /// So a bounce storm is one press, and a whole press that reached the loop late (after
    /// the button was already up again) is still a press and a release, in order.
    private func settle(upTo end: Instant) {
        var changeStart: Instant?
        for (index, edge) in pending.enumerated() {
            let segmentEnd = index + 1 < pending.count ? pending[index + 1].at : end
            guard edge.active != stable else { continue }  // back where it was: still bouncing
            if changeStart == nil { changeStart = edge.at }
            if segmentEnd - edge.at >= debounce {
                accept(edge.active, at: changeStart ?? edge.at)
                changeStart = nil
            }
        }
        pending.removeAll()
    }

    /// Sets the starting state from a read of the line, without an event: a button already
    /// down when the line is requested is not a press (and a tilt switch's state is known).
    public func seed(pressed: Bool) {
        stable = pressed
        pending.removeAll()
    }

    /// Drops any state (line released or re-requested).
    public func reset() {
        if let debounceTimer { loop.cancel(debounceTimer) }
        if let holdTimer { loop.cancel(holdTimer) }
        debounceTimer = nil
        holdTimer = nil
        stable = false
        pending.removeAll()
        pressedAt = nil
    }

    private func accept(_ active: Bool, at time: Instant) {
        stable = active
        if active {
            pressedAt = time
            repeats = 0
            onEvent(.pressed(at: time))
            holdTimer = loop.schedule(at: max(time + holdTime, loop.now)) { [weak self] in self?.fireHold() }
        } else {
            if let holdTimer { loop.cancel(holdTimer) }
            holdTimer = nil
            let held = time - (pressedAt ?? time)
            pressedAt = nil
            onEvent(.released(at: time, heldFor: held))
        }
    }

    private func fireHold() {
        // The line already reads released: its release report is still on its way, so this
        // was no hold (a late report must not turn a short press into a burst).
        if readLevel?() == false {
            holdTimer = nil
            return
        }
        let now = loop.now
        if repeats == 0 {
            onEvent(.held(at: now))
        } else {
            onEvent(.repeated(at: now, count: repeats))
        }
        repeats += 1
        if let repeatInterval {
            holdTimer = loop.schedule(at: now + repeatInterval) { [weak self] in self?.fireHold() }
        } else {
            holdTimer = nil
        }
    }
}
