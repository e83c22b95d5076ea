// Drives an output line with a steady state and transient blink patterns on the loop's clock.

import PinholeCore

/// One LED (or torch, or buzzer) output.
///
/// The output has a steady state (off, on, or a repeating pattern) and may play a transient
/// pattern on top; when the transient pattern ends the steady state resumes.
public final class LEDController {
    private let loop: EventLoop
    /// The line driven.
    public let line: any OutputLine
    private var timer: TimerID?
    /// The state shown when no transient pattern plays.
    public private(set) var steady: LEDState = .off
    /// The transient pattern playing, if any.
    public private(set) var transient: BlinkPattern?
    /// Errors writing the line (kept, not thrown: an LED must never stop the camera).
    public private(set) var lastError: Error?

    /// Creates a controller for a requested output line.
    public init(loop: EventLoop, line: any OutputLine) {
        self.loop = loop
        self.line = line
    }

    /// The line's current value.
    public var isOn: Bool { line.value }

    /// What the output is showing, by name ("off", "on", "busy", "error-3" …).
    public var showing: String { transient?.name ?? steady.name }

    /// Steady on or off (cancels any pattern).
    public func set(_ on: Bool) {
        setSteady(on ? .on : .off)
    }

    /// Sets the steady state (cancels any transient pattern).
    public func setSteady(_ state: LEDState) {
        cancelTimer()
        transient = nil
        steady = state
        resume()
    }

    /// Plays a pattern once, then returns to the steady state. A pattern that never ends
    /// plays until `set`, `setSteady` or another `play`.
    public func play(_ pattern: BlinkPattern) {
        cancelTimer()
        transient = pattern
        run(pattern.steps(), index: 0, repeating: !pattern.isFinite)
    }

    /// Turns the output off for good (shutdown).
    public func shutdown() {
        cancelTimer()
        transient = nil
        steady = .off
        write(false)
    }

    private func resume() {
        switch steady {
        case .off: write(false)
        case .on: write(true)
        case .pattern(let pattern): run(pattern.steps(), index: 0, repeating: !pattern.isFinite)
        }
    }

    private func run(_ steps: [(on: Bool, duration: Duration)], index: Int, repeating: Bool) {
        guard !steps.isEmpty else { return finished() }
        var index = index
        if index >= steps.count {
            guard repeating else { return finished() }
            index = 0
        }
        let step = steps[index]
        write(step.on)
        timer = loop.schedule(after: step.duration) { [weak self] in
            self?.run(steps, index: index + 1, repeating: repeating)
        }
    }

    private func finished() {
        timer = nil
        if let pattern = transient {
            transient = nil
            if let after = pattern.after { steady = after ? .on : .off }
            resume()
        } else {
            steady = .off  // a finite steady pattern rests off
            write(false)
        }
    }

    private func cancelTimer() {
        if let timer { loop.cancel(timer) }
        timer = nil
    }

    private func write(_ on: Bool) {
        do { try line.set(on) } catch { lastError = error }
    }
}
