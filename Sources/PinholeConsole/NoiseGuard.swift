// The quiet-wait state machine: after line noise, ignore everything until silence and Enter twice.

import PinholeCore

/// Decides when a serial console listens again after line noise. A value type: the shell
/// feeds it bursts (bytes that arrived together) with their time and silence checks from
/// its timer, and performs what it returns.
///
/// - `listening`: input acts as usual.
/// - `noisy`: a spell of noise is going on; every byte is ignored and counted. When the
///   line has been silent for `quietPeriod` the spell ends (`silence(at:)` returns it, once,
///   for the log) and the guard waits for a person.
/// - `waiting`: a person wakes the console with Enter, then Enter again within
///   `enterWindow` (each Enter a burst of its own). Anything else is noise again.
public struct NoiseGuard: Sendable {
    /// One noisy spell, for the log and the notice after waking.
    public struct Spell: Sendable, Equatable {
        /// Why it started (the first noise seen).
        public var reason: String
        /// When it started.
        public var start: Instant
        /// When the last noisy byte arrived.
        public var end: Instant
        /// Bytes ignored.
        public var bytes: Int
        /// Bursts ignored.
        public var bursts: Int
        /// Framing or parity errors and breaks reported by the UART.
        public var lineErrors: Int

        /// The log entry: `console noise for 4.2 s: 9120 bytes in 17 bursts, 3 framing/parity errors (…)`.
        public var logLine: String {
            let seconds = Double(Int((end - start).seconds * 10)) / 10
            var text = "console noise for \(seconds) s: \(bytes) bytes in \(bursts) bursts ignored"
            if lineErrors > 0 { text += ", \(lineErrors) framing/parity errors" }
            return text + " (first: \(reason))"
        }
    }

    /// The guard's state.
    public enum State: Sendable, Equatable {
        /// Input acts.
        case listening
        /// Noise is arriving.
        case noisy(Spell)
        /// Silent after noise: waiting for Enter, Enter (`firstEnter` once the first came).
        case waiting(firstEnter: Instant?)
    }

    /// What a burst did.
    public enum Outcome: Sendable, Equatable {
        /// Listening: the burst may act.
        case act
        /// Ignored (noise, or waiting for a person).
        case ignored
        /// This burst started a quiet wait.
        case startedQuiet
        /// The second Enter: listening again; the console shows a notice with what was ignored.
        case woke(spells: Int, bytes: Int)
    }

    /// Silence needed before Enter, Enter wakes the console (`[console] quiet_s`).
    public var quietPeriod: Duration
    /// The second Enter must come within this of the first.
    public static let enterWindow: Duration = .seconds(2)
    /// Two Enters closer than this are not a person pressing twice.
    public static let minimumEnterGap: Duration = .milliseconds(60)

    /// The current state.
    public private(set) var state: State = .listening
    private var lastByte: Instant?
    private var spells = 0
    private var ignoredBytes = 0

    /// A guard that wakes after `quietPeriod` of silence and Enter twice.
    public init(quietPeriod: Duration = .seconds(3)) {
        self.quietPeriod = quietPeriod
    }

    /// Whether input is being ignored.
    public var isQuiet: Bool { state != .listening }

    /// When the shell should call `silence(at:)` (nil: no check needed).
    public var silenceDeadline: Instant? {
        guard case .noisy = state, let lastByte else { return nil }
        return lastByte + quietPeriod
    }

    /// Starts a quiet wait (noise seen by the shell, or too many unparseable lines).
    public mutating func startQuiet(reason: String, bytes: Int, lineErrors: Int = 0, at now: Instant)
        -> Outcome
    {
        lastByte = now
        ignoredBytes += bytes
        switch state {
        case .noisy(var spell):
            spell.bytes += bytes
            spell.bursts += 1
            spell.lineErrors += lineErrors
            spell.end = now
            state = .noisy(spell)
            return .ignored
        case .listening, .waiting:
            state = .noisy(
                Spell(reason: reason, start: now, end: now, bytes: bytes, bursts: 1, lineErrors: lineErrors))
            return .startedQuiet
        }
    }

    /// A burst arriving while quiet (`isQuiet`). `isEnter`: the burst is exactly one Enter
    /// key (CR, LF or CRLF) and nothing else.
    public mutating func quietBurst(bytes: Int, isEnter: Bool, lineErrors: Int = 0, at now: Instant)
        -> Outcome
    {
        switch state {
        case .listening:
            return .act
        case .noisy:
            return startQuiet(reason: "", bytes: bytes, lineErrors: lineErrors, at: now)
        case .waiting(let firstEnter):
            let silentBefore = lastByte.map { now - $0 >= quietPeriod } ?? true
            guard isEnter, lineErrors == 0 else {
                return startQuiet(
                    reason: "input while waiting for Enter", bytes: bytes, lineErrors: lineErrors, at: now)
            }
            lastByte = now
            ignoredBytes += bytes
            if let firstEnter, now - firstEnter <= Self.enterWindow, now - firstEnter >= Self.minimumEnterGap
            {
                let outcome = Outcome.woke(spells: spells, bytes: ignoredBytes)
                reset()
                return outcome
            }
            // A first Enter counts only after the quiet period; otherwise keep waiting.
            state = .waiting(firstEnter: silentBefore ? now : nil)
            return .ignored
        }
    }

    /// The shell's timer: if the line has been silent for `quietPeriod`, the noisy spell
    /// ends and is returned (to be logged, once); the guard then waits for Enter, Enter.
    public mutating func silence(at now: Instant) -> Spell? {
        guard case .noisy(let spell) = state, let deadline = silenceDeadline, now >= deadline else {
            return nil
        }
        state = .waiting(firstEnter: nil)
        spells += 1
        return spell
    }

    /// Back to listening (the console was reset, e.g. a mode switch by a valid command).
    public mutating func reset() {
        state = .listening
        spells = 0
        ignoredBytes = 0
    }
}
