// Line mode's reader: bytes from the line, through the input gate, cut into lines for the console.

import PinholeCore

/// The whole input path of line mode, bytes in and answer lines out: the input gate (which
/// may hold input back on a serial line), the line assembler, and the console that answers
/// every line it is given exactly once. `pinhole run` and the command fuzzer drive this same
/// reader. Runs on the loop.
public final class LineModeReader {
    /// The gate every byte passes first.
    public let gate: ConsoleInputGate
    /// The console the lines go to.
    public let console: LineModeConsole
    private var assembler = LineAssembler(maximumLength: LineModeConsole.maximumLineLength)
    /// Writes an `event …` line (the console's own output).
    private let writeEvent: (String) -> Void
    /// What a person does to wake the console after noise (for the `event noise` line).
    public var wakeHint = "when the line has been quiet for 3 s, press Enter twice"

    /// A reader feeding `console` through `gate`; `writeEvent` writes the gate's `event …` lines.
    /// The gate's `deliver` is left to the caller (the menu may read from it too): hand line
    /// mode's bytes to `pass(_:)`.
    public init(gate: ConsoleInputGate, console: LineModeConsole, writeEvent: @escaping (String) -> Void) {
        self.gate = gate
        self.console = console
        self.writeEvent = writeEvent
        console.onUnparseableStreak = { [unowned gate] count in gate.unparseableLines(count) }
    }

    /// Bytes from the line (they go through the gate first).
    public func receive(_ bytes: [UInt8], at arrival: Instant? = nil) {
        gate.receive(bytes, at: arrival)
    }

    /// Bytes the gate let through: every complete line goes to the console, which answers it.
    /// Once the gate starts a quiet wait, the rest is held back (the `event noise` line says so).
    public func pass(_ bytes: [UInt8]) {
        for piece in assembler.feed(bytes) where !gate.isQuiet { console.receive(piece) }
    }

    /// Input ended: an unterminated last line still counts.
    public func finish() {
        for piece in assembler.finish() where !gate.isQuiet { console.receive(piece) }
    }

    /// Forgets a partly typed line (a mode switch, a reconnected line).
    public func reset() {
        assembler = LineAssembler(maximumLength: LineModeConsole.maximumLineLength)
    }

    /// The gate began a quiet wait: the partly typed line is dropped, lines taken and not yet
    /// run are answered `not run`, and an `event noise` line tells a script what happened.
    public func quietBegan(reason: String) {
        reset()
        writeEvent("event noise: input is ignored (\(reason)); \(wakeHint)")
        console.dropWaitingLines(because: "line noise began before it ran (\(reason))")
    }

    /// A person woke the console: the `event listening again` line.
    public func woke(bytes: Int) {
        writeEvent("event listening again: \(bytes) bytes of line noise were ignored (see log)")
    }
}
