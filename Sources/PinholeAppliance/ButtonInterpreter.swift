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
    private var level = false
    private var stable = false
    private var changeStarted: Instant?
    private var debounceTimer: TimerID?
    private var holdTimer: TimerID?
    private var pressedAt: Instant?
    private var repeats = 0
    private var verifiedAt: Instant?

    /// Reads the line's level now (true = active), when the backend can. When the debounce
    /// window closes, this reading decides, and edges stamped before it are ignored: on a
    /// busy board the kernel's edge reports can reach the loop long after the contact
    /// settled, and only the line itself knows how it settled.
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
        if let verifiedAt, edge.timestamp < verifiedAt { return }  // already accounted for by a reading
        level = edge.active
        // The first edge away from the stable level starts the change; bouncing back and
        // forth keeps that start until the line settles one way or the other.
        if level != stable && changeStarted == nil { changeStarted = edge.timestamp }
        if let debounceTimer { loop.cancel(debounceTimer) }
        debounceTimer = nil
        guard changeStarted != nil else { return }
        if debounce == .zero {
            if level != stable { accept(at: edge.timestamp) }
            return
        }
        // The quiet period counts from when the loop learns of the edge, not from the kernel's
        // timestamp: on a busy board edges reach the loop late, and a window measured from the
        // timestamp could close before the rest of the bounce has been delivered. The press
        // still carries the first edge's timestamp (zero shutter lag).
        let quietFrom = max(edge.timestamp, loop.now)
        debounceTimer = loop.schedule(at: quietFrom + debounce) { [weak self] in
            guard let self else { return }
            self.debounceTimer = nil
            if let reading = self.readLevel?() {
                self.level = reading
                self.verifiedAt = self.loop.now
            }
            if self.level != self.stable {
                self.accept(at: self.changeStarted ?? self.loop.now)
            } else {
                self.changeStarted = nil  // a glitch: the line settled back where it was
            }
        }
    }

    /// Sets the starting state from a read of the line, without an event: a button already
    /// down when the line is requested is not a press (and a tilt switch's state is known).
    public func seed(pressed: Bool) {
        level = pressed
        stable = pressed
        changeStarted = nil
    }

    /// Drops any state (line released or re-requested).
    public func reset() {
        if let debounceTimer { loop.cancel(debounceTimer) }
        if let holdTimer { loop.cancel(holdTimer) }
        debounceTimer = nil
        holdTimer = nil
        level = false
        stable = false
        changeStarted = nil
        pressedAt = nil
    }

    private func accept(at time: Instant) {
        stable = level
        changeStarted = nil
        if stable {
            pressedAt = time
            repeats = 0
            onEvent(.pressed(at: time))
            holdTimer = loop.schedule(at: time + holdTime) { [weak self] in self?.fireHold() }
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
