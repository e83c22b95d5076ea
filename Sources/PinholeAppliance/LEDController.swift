// Drives an output line with steady states and blink patterns on the loop's clock.

import PinholeCore

/// A blink pattern: `count` cycles of on/off (nil count: forever), then `after`.
public struct BlinkPattern: Sendable, Hashable {
    /// Time on per cycle.
    public var on: Duration
    /// Time off per cycle.
    public var off: Duration
    /// Cycles; nil repeats until replaced.
    public var count: Int?
    /// Level to rest at when the pattern ends.
    public var after: Bool

    /// Creates a pattern.
    public init(on: Duration, off: Duration, count: Int?, after: Bool = false) {
        self.on = on
        self.off = off
        self.count = count
        self.after = after
    }

    /// One short flash (a photo was saved).
    public static let flash = BlinkPattern(on: .milliseconds(150), off: .zero, count: 1)
    /// Fast blink until replaced (busy).
    public static let busy = BlinkPattern(on: .milliseconds(100), off: .milliseconds(100), count: nil)
    /// Slow blink until replaced (low storage).
    public static let slow = BlinkPattern(on: .milliseconds(500), off: .milliseconds(1500), count: nil)

    /// Error code `n`: n short blinks, a pause, repeated.
    public static func errorCode(_ n: Int) -> BlinkPattern {
        BlinkPattern(on: .milliseconds(200), off: .milliseconds(200), count: n, after: false)
    }
}

/// One LED (or torch, or buzzer) output with patterns.
public final class LEDController {
    private let loop: EventLoop
    /// The line driven.
    public let line: any OutputLine
    private var timer: TimerID?
    private var resting = false
    /// Errors writing the line (kept, not thrown: an LED must never stop the camera).
    public private(set) var lastError: Error?

    /// Creates a controller for a requested output line.
    public init(loop: EventLoop, line: any OutputLine) {
        self.loop = loop
        self.line = line
    }

    /// The line's current value.
    public var isOn: Bool { line.value }

    /// Steady on or off (cancels any pattern).
    public func set(_ on: Bool) {
        cancelPattern()
        resting = on
        write(on)
    }

    /// Plays a pattern, then rests at `pattern.after`, or at the steady state set before.
    public func play(_ pattern: BlinkPattern) {
        cancelPattern()
        cycle(pattern, done: 0)
    }

    /// Turns the output off for good (shutdown).
    public func shutdown() {
        cancelPattern()
        resting = false
        write(false)
    }

    private func cycle(_ pattern: BlinkPattern, done: Int) {
        if let count = pattern.count, done >= count {
            timer = nil
            write(pattern.after || resting)
            return
        }
        write(true)
        timer = loop.schedule(after: pattern.on) { [weak self] in
            guard let self else { return }
            if pattern.off == .zero {
                self.cycle(pattern, done: done + 1)
                return
            }
            self.write(false)
            self.timer = self.loop.schedule(after: pattern.off) { [weak self] in
                self?.cycle(pattern, done: done + 1)
            }
        }
    }

    private func cancelPattern() {
        if let timer { loop.cancel(timer) }
        timer = nil
    }

    private func write(_ on: Bool) {
        do { try line.set(on) } catch { lastError = error }
    }
}
