// The console's input gate: every byte from the line passes here before it can act.

import PinholeCore

/// Stands between a serial line (or stdio) and the consoles. In the menu, input is cut into
/// bursts (bytes that arrived closer than `burstGap`, by the times the reader stamped them,
/// so a loop that is late to look at them judges them as they came) and each burst is
/// judged whole before any byte acts: one key passes, anything else is noise. In line mode each chunk passes at once
/// (scripts are never slowed) unless it holds a byte no keyboard sends. Noise, framing or
/// parity errors, or too many unparseable lines start a quiet wait (`NoiseGuard`): nothing
/// passes until the line has been silent for the quiet period and a person presses Enter
/// twice. Runs on the loop; time comes from the loop's clock.
public final class ConsoleInputGate {
    /// Bytes closer together than this form one burst (a person does not type two keys
    /// this fast; a key's escape sequence arrives well within it, even over USB serial).
    public static let burstGap: Duration = .milliseconds(20)
    /// A burst longer than this is not one key.
    static let longestKey = 2 * TerminalDecoder.maximumSequence

    private let loop: EventLoop
    private var noise: NoiseGuard
    private var judge = InputJudge()
    private var marks: MarkedInputDecoder?
    private var burst: [UInt8] = []
    private var burstErrors = 0
    /// When the burst's first and latest bytes arrived (nil: no burst is open).
    private var burstStart: Instant?
    private var lastArrival: Instant?
    private var burstTimer: TimerID?
    private var silenceTimer: TimerID?
    private var secondEnterTimer: TimerID?

    /// Whether the gate judges input at all (false: everything passes, as for a script on a
    /// pipe or the process's own terminal; the gate is for serial lines).
    public var enabled = true
    /// Whether the menu (bursts judged as keystrokes) or line mode (text) is reading.
    public var menuMode = false {
        didSet { if menuMode != oldValue { resetInput() } }
    }
    /// Input that may act.
    public var deliver: (([UInt8]) -> Void)?
    /// A quiet wait began (show how to wake the console), with the reason.
    public var onQuiet: ((String) -> Void)?
    /// A noisy spell ended (the line went silent): log it, once.
    public var onSpell: ((NoiseGuard.Spell) -> Void)?
    /// A person woke the console (Enter, Enter): show a notice.
    public var onWoke: ((_ spells: Int, _ bytes: Int) -> Void)?
    /// The first Enter counted and the second may come now (`NoiseGuard.minimumEnterGap`
    /// after the first): tell the person to press it.
    public var onSecondEnterDue: (() -> Void)?

    /// A gate on `loop`. `marked`: the line delivers termios PARMRK marks (a real UART).
    public init(loop: EventLoop, quietPeriod: Duration = .seconds(3), marked: Bool = false) {
        self.loop = loop
        self.noise = NoiseGuard(quietPeriod: quietPeriod)
        self.marks = marked ? MarkedInputDecoder() : nil
    }

    /// Whether input is being ignored.
    public var isQuiet: Bool { noise.isQuiet }

    /// The silence a person must leave before Enter, Enter wakes the console.
    public var quietPeriodForWaking: Duration { noise.quietPeriod }

    /// The guard's state (for tests and the log).
    public var state: NoiseGuard.State { noise.state }

    /// Bytes from the line that arrived at `arrival` (when the reader read them; nil: now,
    /// on the loop's clock). Bursts end at a gap in arrival times, and quiet periods and
    /// the gap between two Enters are measured between arrivals.
    public func receive(_ raw: [UInt8], at arrival: Instant? = nil) {
        guard enabled else {
            deliver?(raw)
            return
        }
        let arrival = arrival ?? loop.now
        // The open burst ended before these bytes came, however late the loop is with them.
        if let lastArrival, burstStart != nil, arrival - lastArrival >= Self.burstGap {
            if let burstTimer { loop.cancel(burstTimer) }
            burstEnded()
        }
        var bytes = raw
        var errors = 0
        if marks != nil { (bytes, errors) = marks!.feed(raw) }
        if menuMode || noise.isQuiet {
            burst += bytes
            burstErrors += errors
            if burstStart == nil { burstStart = arrival }
            lastArrival = arrival
            if let burstTimer { loop.cancel(burstTimer) }
            burstTimer = nil
            // Longer than any key's sequence: judged now (a flood never piles up in memory).
            if burst.count > Self.longestKey { return burstEnded() }
            // Bytes the reader already has are handed over before this runs (posted work
            // goes before timers), so only bytes that came later can extend the burst.
            burstTimer = loop.schedule(at: arrival + Self.burstGap) { [weak self] in self?.burstEnded() }
            return
        }
        lastArrival = arrival
        // Line mode, listening: judged now, so that scripts wait for nothing.
        if errors > 0 {
            return startQuiet(
                "\(errors) framing/parity errors on the line", bytes: bytes.count + errors, errors,
                at: arrival)
        }
        switch judge.judgeText(bytes) {
        case .typed: deliver?(bytes)
        case .noise(let why): startQuiet(why, bytes: bytes.count, 0, at: arrival)
        }
    }

    /// Line mode: the console answered this many unparseable lines in a row.
    public func unparseableLines(_ count: Int) {
        guard enabled, !noise.isQuiet else { return }
        startQuiet("\(count) unparseable lines in a row", bytes: 0, 0, at: loop.now)
    }

    private func burstEnded() {
        burstTimer = nil
        let bytes = burst
        let errors = burstErrors
        let start = burstStart ?? loop.now
        let now = lastArrival ?? start
        burst = []
        burstErrors = 0
        burstStart = nil
        // Silent before the burst began; its bytes count as arriving with its last ones.
        if let spell = noise.silence(at: start) { onSpell?(spell) }
        if noise.isQuiet {
            var enterJudge = InputJudge()
            let verdict = enterJudge.judgeKeystroke(bytes)
            let outcome = noise.quietBurst(
                bytes: bytes.count + errors, isEnter: verdict == .typed(keys: 1, isEnter: true),
                lineErrors: errors, at: now)
            after(outcome)
            return
        }
        if errors > 0 {
            return startQuiet(
                "\(errors) framing/parity errors on the line", bytes: bytes.count + errors, errors, at: now)
        }
        switch judge.judgeKeystroke(bytes) {
        case .typed: deliver?(bytes)
        case .noise(let why): startQuiet(why, bytes: bytes.count, 0, at: now)
        }
    }

    private func startQuiet(_ reason: String, bytes: Int, _ errors: Int, at arrival: Instant) {
        after(noise.startQuiet(reason: reason, bytes: bytes, lineErrors: errors, at: arrival))
    }

    private func after(_ outcome: NoiseGuard.Outcome) {
        switch outcome {
        case .act, .ignored: break
        case .startedQuiet:
            resetInput()
            onQuiet?(noiseReason)
        case .woke(let spells, let bytes):
            resetInput()
            onWoke?(spells, bytes)
        }
        scheduleSilenceCheck()
        scheduleSecondEnterPrompt()
    }

    /// After a first Enter that counts, prompts for the second once it may come.
    private func scheduleSecondEnterPrompt() {
        if let secondEnterTimer { loop.cancel(secondEnterTimer) }
        secondEnterTimer = nil
        guard case .waiting(let first?) = noise.state else { return }
        secondEnterTimer = loop.schedule(at: first + NoiseGuard.minimumEnterGap) { [weak self] in
            guard let self else { return }
            secondEnterTimer = nil
            if case .waiting(first) = noise.state { onSecondEnterDue?() }
        }
    }

    private var noiseReason: String {
        if case .noisy(let spell) = noise.state { return spell.reason }
        return ""
    }

    private func scheduleSilenceCheck() {
        if let silenceTimer { loop.cancel(silenceTimer) }
        silenceTimer = nil
        guard let deadline = noise.silenceDeadline else { return }
        silenceTimer = loop.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            silenceTimer = nil
            if let spell = noise.silence(at: loop.now) { onSpell?(spell) }
            scheduleSilenceCheck()
        }
    }

    private func resetInput() {
        judge.reset()
    }
}
