// A conformance check of the libgpiod backend against gpio-sim: edges with bounce, debounce, outputs, errors.

import PinholeCore
import PinholeLinux

#if canImport(Glibc)
    import Glibc
#endif

/// Checks `LinuxGPIO` against a gpio-sim chip, driving its inputs and reading its outputs
/// back through sysfs. Meant for the VM integration test (or any machine with gpio-sim
/// loaded); every step reports one `ok …` or `FAIL …` line.
public struct GPIOConformanceCheck {
    /// The lines used: two inputs wired as active-low buttons with pull-up, two outputs.
    public struct Lines: Sendable {
        /// Input checked without debounce (every bounce must arrive as an edge).
        public var bouncy: String
        /// Input checked with kernel debounce (a bouncy press must become one edge each way).
        public var debounced: String
        /// Active-high output.
        public var output: String
        /// Output checked as active-low.
        public var activeLowOutput: String

        /// Names the lines.
        public init(bouncy: String, debounced: String, output: String, activeLowOutput: String) {
            self.bouncy = bouncy
            self.debounced = debounced
            self.output = output
            self.activeLowOutput = activeLowOutput
        }
    }

    private let lines: Lines
    private let consumer: String
    private let debounce: Duration
    private let loop = EventLoop(mode: .realTime)

    /// Creates the check; `debounce` is asked of the kernel for the debounced input.
    public init(lines: Lines, consumer: String = "pinhole-gpio-check", debounce: Duration = .milliseconds(10))
    {
        self.lines = lines
        self.consumer = consumer
        self.debounce = debounce
    }

    /// Whether `gpio` reaches a gpio-sim chip carrying a line called `line` (the check can run).
    public static func gpioSimCarries(_ line: String, gpio: LinuxGPIO) -> Bool {
        (try? GPIOSimLine(name: line, gpio: gpio)) != nil
    }

    /// Runs every step; returns whether all passed.
    public func run(report: (String) -> Void) -> Bool {
        let gpio = LinuxGPIO(loop: loop, consumer: consumer)
        var passed = true
        let steps: [(String, () throws -> String)] = [
            ("missing line", { try checkMissingLine(gpio) }),
            ("bouncy input", { try checkBouncyInput(gpio) }),
            ("debounced input", { try checkDebouncedInput(gpio) }),
            ("busy line", { try checkBusyLine(gpio) }),
            ("outputs", { try checkOutputs(gpio) }),
        ]
        for (step, body) in steps {
            do {
                report("ok \(try body())")
            } catch {
                passed = false
                report("FAIL gpio \(step): \(error)")
            }
        }
        return passed
    }

    // MARK: Steps

    private func checkMissingLine(_ gpio: LinuxGPIO) throws -> String {
        do {
            _ = try gpio.requestOutput(name: "NO_SUCH_LINE", activeLow: false)
        } catch let error as GPIOError {
            guard case .lineNotFound = error else {
                throw CheckFailure("expected lineNotFound, got: \(error)")
            }
            return "gpio missing line: \(error)"
        }
        throw CheckFailure("requesting NO_SUCH_LINE succeeded")
    }

    private func checkBouncyInput(_ gpio: LinuxGPIO) throws -> String {
        let sim = try GPIOSimLine(name: lines.bouncy, gpio: gpio)
        var edges: [LineEdge] = []
        let line = try gpio.requestInput(InputLineConfig(name: lines.bouncy, activeLow: true, bias: .pullUp))
        {
            edges.append($0)
        }
        defer { line.release() }
        try sim.drive(high: true)
        pump(for: .milliseconds(50)) { false }
        guard try !line.read() else { throw CheckFailure("pulled up, an active-low line reads active") }
        edges.removeAll()
        let start = loop.now
        let transitions = try bounce(sim, pressed: true, glitches: 3)
        let pressedValue = try line.read()
        pump(for: .milliseconds(100)) { false }
        let released = try bounce(sim, pressed: false, glitches: 3)
        let total = transitions + released
        pump(for: .seconds(3)) { edges.count >= total && edges.last?.active == false }
        let end = loop.now
        guard pressedValue else { throw CheckFailure("held low, an active-low line reads inactive") }
        guard edges.count >= 2, edges.first?.active == true, edges.last?.active == false else {
            throw CheckFailure("edges \(describe(edges)): expected a press first and a release last")
        }
        for (previous, next) in zip(edges, edges.dropFirst()) {
            guard next.sequence == previous.sequence + 1 else {
                throw CheckFailure("sequence numbers not consecutive: \(describe(edges))")
            }
            guard next.timestamp >= previous.timestamp else {
                throw CheckFailure("timestamps go backwards: \(describe(edges))")
            }
        }
        guard let first = edges.first, let last = edges.last, first.timestamp >= start, last.timestamp <= end
        else {
            throw CheckFailure("timestamps outside the monotonic window \(start)…\(end): \(describe(edges))")
        }
        let spread = (last.timestamp - first.timestamp).milliseconds
        return "gpio bouncy input \(lines.bouncy): \(edges.count) edges for \(total) transitions, consecutive"
            + " sequence numbers, monotonic kernel timestamps over \(Int(spread)) ms, read() follows the level"
    }

    private func checkDebouncedInput(_ gpio: LinuxGPIO) throws -> String {
        let sim = try GPIOSimLine(name: lines.debounced, gpio: gpio)
        var edges: [LineEdge] = []
        let config = InputLineConfig(
            name: lines.debounced, activeLow: true, bias: .pullUp, debounce: debounce)
        let line = try gpio.requestInput(config) { edges.append($0) }
        defer { line.release() }
        try sim.drive(high: true)
        pump(for: .milliseconds(50)) { false }
        edges.removeAll()
        _ = try bounce(sim, pressed: true, glitches: 3)
        pump(for: .milliseconds(200)) { false }
        _ = try bounce(sim, pressed: false, glitches: 3)
        pump(for: .seconds(2)) { edges.count >= 2 }
        pump(for: .milliseconds(100)) { false }
        guard edges.map(\.active) == [true, false] else {
            throw CheckFailure(
                "with \(Int(debounce.milliseconds)) ms debounce expected press, release; got \(describe(edges))"
            )
        }
        return
            "gpio debounced input \(lines.debounced): a bouncy press and release became exactly one edge each"
            + " (\(Int(debounce.milliseconds)) ms kernel debounce)"
    }

    private func checkBusyLine(_ gpio: LinuxGPIO) throws -> String {
        let held = try gpio.requestInput(InputLineConfig(name: lines.bouncy)) { _ in }
        defer { held.release() }
        do {
            _ = try gpio.requestInput(InputLineConfig(name: lines.bouncy)) { _ in }
        } catch let error as GPIOError {
            guard case .lineBusy(_, let holder) = error, holder == consumer else {
                throw CheckFailure("expected lineBusy held by '\(consumer)', got: \(error)")
            }
            held.release()
            let again = try gpio.requestInput(InputLineConfig(name: lines.bouncy)) { _ in }
            again.release()
            return "gpio busy line: \(error); free again after release"
        }
        throw CheckFailure("a second request of \(lines.bouncy) succeeded")
    }

    private func checkOutputs(_ gpio: LinuxGPIO) throws -> String {
        let sim = try GPIOSimLine(name: lines.output, gpio: gpio)
        let simLow = try GPIOSimLine(name: lines.activeLowOutput, gpio: gpio)
        let output = try gpio.requestOutput(name: lines.output, activeLow: false)
        defer { output.release() }
        let lowOutput = try gpio.requestOutput(name: lines.activeLowOutput, activeLow: true)
        defer { lowOutput.release() }
        var readings: [String] = []
        func expect(_ sim: GPIOSimLine, _ level: Bool, _ what: String) throws {
            let actual = try sim.level()
            readings.append("\(sim.name)=\(actual ? 1 : 0)")
            guard actual == level else { throw CheckFailure("\(what): gpio-sim reads \(actual ? 1 : 0)") }
        }
        try expect(sim, false, "\(lines.output) requested (off)")
        try expect(simLow, true, "\(lines.activeLowOutput) active-low requested (off)")
        try output.set(true)
        try lowOutput.set(true)
        try expect(sim, true, "\(lines.output) on")
        try expect(simLow, false, "\(lines.activeLowOutput) active-low on")
        try output.set(false)
        try lowOutput.set(false)
        try expect(sim, false, "\(lines.output) off")
        try expect(simLow, true, "\(lines.activeLowOutput) active-low off")
        return "gpio outputs read back from gpio-sim: \(readings.joined(separator: " "))"
    }

    // MARK: Helpers

    /// Makes `glitches` short make/break pairs, then settles in the pressed or released
    /// state; returns the number of transitions made.
    private func bounce(_ sim: GPIOSimLine, pressed: Bool, glitches: Int) throws -> Int {
        for _ in 0..<glitches {
            try sim.drive(high: !pressed)
            try sim.drive(high: pressed)
        }
        try sim.drive(high: !pressed)
        return glitches * 2 + 1
    }

    /// Runs posted work (edges) until `done` or the time is up.
    private func pump(for duration: Duration, until done: () -> Bool) {
        let deadline = loop.now + duration
        while loop.now < deadline {
            loop.runUntilIdle()
            if done() { return }
            usleep(1_000)
        }
        loop.runUntilIdle()
    }

    private func describe(_ edges: [LineEdge]) -> String {
        "[" + edges.map { "\($0.active ? "+" : "-")#\($0.sequence)" }.joined(separator: " ") + "]"
    }
}

/// A failed expectation, with what was seen.
private struct CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
