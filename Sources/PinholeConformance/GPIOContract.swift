// The GPIO backend contract: one suite that the simulated chip and libgpiod on gpio-sim must both pass.

import PinholeCore

/// What the behaviour relies on from a `GPIOBackend`, checked through a harness that drives
/// its inputs and reads its outputs: missing and busy lines give clear errors; bias,
/// active-low, edges with consecutive sequence numbers and timestamps on the loop's clock,
/// kernel debounce, outputs, and release and re-request. Every step reports one `ok …` or
/// `FAIL …` line.
public struct GPIOContract {
    /// The lines used (all must exist; none may be held by anyone else).
    public struct Lines: Sendable {
        /// Input checked without debounce (every bounce must arrive as an edge), with bias
        /// and active-low both ways.
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
    private let harness: any GPIOContractHarness
    private let debounce: Duration

    /// Creates the suite; `debounce` is asked of the backend for the debounced input.
    public init(lines: Lines, harness: any GPIOContractHarness, debounce: Duration = .milliseconds(10)) {
        self.lines = lines
        self.harness = harness
        self.debounce = debounce
    }

    private var gpio: any GPIOBackend { harness.gpio }
    private var loop: EventLoop { harness.loop }

    /// Runs every step; returns whether all passed.
    public func run(report: (String) -> Void) -> Bool {
        var passed = true
        let steps: [(String, () throws -> String)] = [
            ("missing line", checkMissingLine),
            ("bias", checkBias),
            ("bouncy input", checkBouncyInput),
            ("active-high input", checkActiveHighInput),
            ("debounced input", checkDebouncedInput),
            ("busy line", checkBusyLine),
            ("release", checkReleaseStopsEdges),
            ("outputs", checkOutputs),
            ("output re-request", checkOutputReRequest),
        ]
        for (step, body) in steps {
            do {
                report("ok gpio \(step): \(try body())")
            } catch {
                passed = false
                report("FAIL gpio \(step): \(error)")
            }
        }
        return passed
    }

    // MARK: Errors

    private func checkMissingLine() throws -> String {
        var messages: [String] = []
        for output in [true, false] {
            do {
                if output {
                    _ = try gpio.requestOutput(name: "NO_SUCH_LINE", activeLow: false)
                } else {
                    _ = try gpio.requestInput(InputLineConfig(name: "NO_SUCH_LINE")) { _ in }
                }
                throw ContractFailure("requesting NO_SUCH_LINE as \(output ? "output" : "input") succeeded")
            } catch let error as GPIOError {
                guard case .lineNotFound("NO_SUCH_LINE", _) = error, "\(error)".contains("NO_SUCH_LINE")
                else {
                    throw ContractFailure("expected lineNotFound naming NO_SUCH_LINE, got: \(error)")
                }
                messages.append("\(error)")
            }
        }
        return "input and output: \(messages[0])"
    }

    private func checkBusyLine() throws -> String {
        let held = try gpio.requestInput(InputLineConfig(name: lines.bouncy)) { _ in }
        defer { held.release() }
        var errors: [GPIOError] = []
        for asOutput in [false, true] {
            do {
                if asOutput {
                    _ = try gpio.requestOutput(name: lines.bouncy, activeLow: false)
                } else {
                    _ = try gpio.requestInput(InputLineConfig(name: lines.bouncy)) { _ in }
                }
                throw ContractFailure(
                    "a second request of \(lines.bouncy) (as \(asOutput ? "output" : "input")) succeeded")
            } catch let error as GPIOError {
                guard case .lineBusy(lines.bouncy, harness.consumer) = error,
                    "\(error)".contains("already in use")
                else {
                    throw ContractFailure("expected lineBusy held by '\(harness.consumer)', got: \(error)")
                }
                errors.append(error)
            }
        }
        held.release()
        let again = try gpio.requestInput(InputLineConfig(name: lines.bouncy)) { _ in }
        again.release()
        return "as input and as output: \(errors[0]); free again after release"
    }

    // MARK: Inputs

    private func checkBias() throws -> String {
        try harness.undrive(lines.bouncy)
        var seen: [String] = []
        for (bias, activeLow) in [
            (LineBias.pullDown, false), (.pullUp, true), (.pullDown, true), (.pullUp, false),
        ] {
            let line = try gpio.requestInput(
                InputLineConfig(name: lines.bouncy, activeLow: activeLow, bias: bias)
            ) {
                _ in
            }
            defer { line.release() }
            harness.pass(.milliseconds(20))
            let value = try line.read()
            // Nothing drives the line: the bias sets its level, active-low turns it round.
            let expected = (bias == .pullUp) != activeLow
            seen.append("\(bias.rawValue)\(activeLow ? " active-low" : "")=\(value ? "active" : "inactive")")
            guard value == expected else {
                throw ContractFailure(
                    "\(lines.bouncy) undriven with \(bias.rawValue)\(activeLow ? ", active-low" : "")"
                        + " reads \(value ? "active" : "inactive")")
            }
        }
        return "\(lines.bouncy) undriven: \(seen.joined(separator: ", "))"
    }

    private func checkBouncyInput() throws -> String {
        var edges: [(edge: LineEdge, delivered: Instant)] = []
        try harness.drive(lines.bouncy, high: true)
        let line = try gpio.requestInput(InputLineConfig(name: lines.bouncy, activeLow: true, bias: .pullUp))
        {
            edges.append(($0, loop.now))
        }
        defer { line.release() }
        try harness.drive(lines.bouncy, high: true)
        harness.pass(.milliseconds(50))
        guard try !line.read() else { throw ContractFailure("held high, an active-low line reads active") }
        edges.removeAll()
        let start = loop.now
        let transitions = try bounce(lines.bouncy, pressed: true, glitches: 3)
        let pressedValue = try line.read()
        harness.pass(.milliseconds(100))
        let released = try bounce(lines.bouncy, pressed: false, glitches: 3)
        let total = transitions + released
        harness.pass(.seconds(3)) { edges.count >= total && edges.last?.edge.active == false }
        let end = loop.now
        guard pressedValue else { throw ContractFailure("held low, an active-low line reads inactive") }
        let seen = edges.map(\.edge)
        guard seen.count >= 2, seen.first?.active == true, seen.last?.active == false else {
            throw ContractFailure("edges \(describe(seen)): expected a press first and a release last")
        }
        for (previous, next) in zip(seen, seen.dropFirst()) {
            guard next.sequence == previous.sequence + 1 else {
                throw ContractFailure("sequence numbers not consecutive: \(describe(seen))")
            }
            guard next.timestamp >= previous.timestamp else {
                throw ContractFailure("timestamps go backwards: \(describe(seen))")
            }
        }
        for (edge, delivered) in edges where edge.timestamp < start || edge.timestamp > delivered {
            throw ContractFailure(
                "edge #\(edge.sequence) at \(edge.timestamp) is not on the loop's clock: it must lie after"
                    + " \(start) (the first transition) and before \(delivered) (its delivery)")
        }
        guard let first = seen.first, let last = seen.last, last.timestamp <= end else {
            throw ContractFailure("timestamps after the end of the check \(end): \(describe(seen))")
        }
        let spread = (last.timestamp - first.timestamp).milliseconds
        return "\(lines.bouncy): \(seen.count) edges for \(total) transitions, consecutive"
            + " sequence numbers, timestamps on the loop's monotonic clock (between the transition and the"
            + " delivery) over \(Int(spread)) ms, read() follows the level"
    }

    private func checkActiveHighInput() throws -> String {
        var edges: [LineEdge] = []
        try harness.drive(lines.bouncy, high: false)
        let line = try gpio.requestInput(
            InputLineConfig(name: lines.bouncy, activeLow: false, bias: .pullDown)
        ) {
            edges.append($0)
        }
        defer { line.release() }
        try harness.drive(lines.bouncy, high: false)
        harness.pass(.milliseconds(50))
        edges.removeAll()
        try harness.drive(lines.bouncy, high: true)
        harness.pass(.seconds(2)) { !edges.isEmpty }
        let high = try line.read()
        try harness.drive(lines.bouncy, high: false)
        harness.pass(.seconds(2)) { edges.count >= 2 }
        let low = try line.read()
        guard edges.map(\.active) == [true, false], high, !low else {
            throw ContractFailure(
                "active-high \(lines.bouncy) driven high then low: edges \(describe(edges)), read \(high) then \(low)"
            )
        }
        return "\(lines.bouncy): high is active, low inactive, one edge each"
    }

    /// Bursts of glitches the debounced-input check makes at most, looking for one whose
    /// glitches were all shorter than the debounce period.
    static let debounceBursts = 5

    /// Debounce is shown by bursts whose glitches were all shorter than the period: they must
    /// give exactly one press and one release. A busy host (an emulated VM) can stretch a
    /// glitch past the period, and then the kernel rightly reports it: each glitch's length is
    /// measured (at most from before the write that began it to after the one that ended it),
    /// the edges of a stretched burst need only alternate from press to release, and a new
    /// burst is made, up to `debounceBursts`. If the host stretched every burst, the check
    /// fails: debounce was not shown.
    private func checkDebouncedInput() throws -> String {
        var edges: [LineEdge] = []
        let config = InputLineConfig(
            name: lines.debounced, activeLow: true, bias: .pullUp, debounce: debounce)
        let line = try gpio.requestInput(config) { edges.append($0) }
        defer { line.release() }
        try harness.drive(lines.debounced, high: true)
        harness.pass(.milliseconds(50))
        var stretched: [Duration] = []
        // How long an edge may take to come once its level has been stable for the period:
        // a hang guard only, each wait ends at the edge it waits for.
        let edgeBudget = debounce + .seconds(5)
        for _ in 0..<Self.debounceBursts {
            edges.removeAll()
            let press = try timedBounce(lines.debounced, pressed: true, glitches: 3)
            // Held until the press is reported: a release begun earlier would restart the
            // kernel's debounce timer and the press would rightly never be reported.
            harness.pass(edgeBudget) { edges.last?.active == true }
            let release = try timedBounce(lines.debounced, pressed: false, glitches: 3)
            // Settled: the last edge is the release and nothing came for 100 ms after it.
            harness.pass(edgeBudget) {
                guard let last = edges.last, !last.active else { return false }
                return harness.loop.now - last.timestamp >= .milliseconds(100)
            }
            let states = edges.map(\.active)
            let longest = max(press, release)
            guard states.first == true, states.last == false,
                zip(states, states.dropFirst()).allSatisfy({ $0 != $1 })
            else {
                throw ContractFailure(
                    "with \(Int(debounce.milliseconds)) ms debounce expected edges alternating from press to"
                        + " release; got \(describe(edges)) (glitches at most \(milliseconds(longest)) long)")
            }
            guard longest >= debounce else {
                guard states == [true, false] else {
                    throw ContractFailure(
                        "with \(Int(debounce.milliseconds)) ms debounce expected press, release; got "
                            + "\(describe(edges)) (every glitch at most \(milliseconds(longest)) long)")
                }
                let note =
                    stretched.isEmpty
                    ? ""
                    : "; \(stretched.count) burst(s) before it stretched by the host (longest glitch "
                        + "\(stretched.map(milliseconds).joined(separator: ", "))) were not judged"
                return
                    "\(lines.debounced): a bouncy press and release became exactly one edge each"
                    + " (\(Int(debounce.milliseconds)) ms debounce, glitches at most \(milliseconds(longest)))\(note)"
            }
            stretched.append(longest)
        }
        throw ContractFailure(
            "debounce not shown: the host stretched a glitch past the \(Int(debounce.milliseconds)) ms period in"
                + " each of \(Self.debounceBursts) bursts (longest glitch "
                + "\(stretched.map(milliseconds).joined(separator: ", ")))")
    }

    private func milliseconds(_ duration: Duration) -> String {
        let micro =
            duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return "\(micro / 1000).\(micro % 1000 / 100) ms"
    }

    private func checkReleaseStopsEdges() throws -> String {
        var late: [LineEdge] = []
        try harness.drive(lines.bouncy, high: true)
        let first = try gpio.requestInput(InputLineConfig(name: lines.bouncy)) { late.append($0) }
        harness.pass(.milliseconds(20))
        first.release()
        late.removeAll()
        try harness.drive(lines.bouncy, high: false)
        harness.pass(.milliseconds(100))
        try harness.drive(lines.bouncy, high: true)
        harness.pass(.milliseconds(100))
        guard late.isEmpty else {
            throw ContractFailure("a released line still delivered edges: \(describe(late))")
        }
        var edges: [LineEdge] = []
        let again = try gpio.requestInput(InputLineConfig(name: lines.bouncy)) { edges.append($0) }
        defer { again.release() }
        try harness.drive(lines.bouncy, high: true)
        harness.pass(.milliseconds(20))
        edges.removeAll()
        try harness.drive(lines.bouncy, high: false)
        harness.pass(.seconds(2)) { !edges.isEmpty }
        guard edges.map(\.active) == [true], late.isEmpty else {
            throw ContractFailure(
                "re-requested \(lines.bouncy): expected one press edge, got \(describe(edges))"
                    + " (and \(late.count) on the released request)")
        }
        return
            "\(lines.bouncy): no edge after release; re-requested, edges flow to the new owner"
    }

    // MARK: Outputs

    private func checkOutputs() throws -> String {
        let output = try gpio.requestOutput(name: lines.output, activeLow: false)
        defer { output.release() }
        let lowOutput = try gpio.requestOutput(name: lines.activeLowOutput, activeLow: true)
        defer { lowOutput.release() }
        var readings: [String] = []
        func expect(_ line: String, high: Bool, _ what: String) throws {
            let actual = try harness.level(line)
            readings.append("\(line)=\(actual ? 1 : 0)")
            guard actual == high else { throw ContractFailure("\(what): the line reads \(actual ? 1 : 0)") }
        }
        try expect(lines.output, high: false, "\(lines.output) requested (off)")
        try expect(lines.activeLowOutput, high: true, "\(lines.activeLowOutput) active-low requested (off)")
        guard !output.value, !lowOutput.value else {
            throw ContractFailure("a new output's value is not off")
        }
        try output.set(true)
        try lowOutput.set(true)
        try expect(lines.output, high: true, "\(lines.output) on")
        try expect(lines.activeLowOutput, high: false, "\(lines.activeLowOutput) active-low on")
        guard output.value, lowOutput.value else { throw ContractFailure("value does not follow set(true)") }
        try output.set(false)
        try lowOutput.set(false)
        try expect(lines.output, high: false, "\(lines.output) off")
        try expect(lines.activeLowOutput, high: true, "\(lines.activeLowOutput) active-low off")
        return "read back from outside: \(readings.joined(separator: " "))"
    }

    private func checkOutputReRequest() throws -> String {
        let output = try gpio.requestOutput(name: lines.output, activeLow: false)
        try output.set(true)
        output.release()
        let again = try gpio.requestOutput(name: lines.output, activeLow: false)
        defer { again.release() }
        let level = try harness.level(lines.output)
        guard !level, !again.value else {
            throw ContractFailure(
                "\(lines.output) re-requested after being on reads \(level ? 1 : 0), not off")
        }
        try again.set(true)
        guard try harness.level(lines.output) else {
            throw ContractFailure("\(lines.output) re-requested and set on reads 0")
        }
        try again.set(false)
        return "\(lines.output): released on, re-requested off, drives again"
    }

    // MARK: Helpers

    /// `bounce`, timed: returns the longest any level before the settled one can have held
    /// (from before the write that set it to after the write that changed it).
    private func timedBounce(_ line: String, pressed: Bool, glitches: Int) throws -> Duration {
        var levels: [Bool] = []
        for _ in 0..<glitches { levels += [!pressed, pressed] }
        levels.append(!pressed)
        var before: [Instant] = []
        var after: [Instant] = []
        for high in levels {
            before.append(harness.loop.now)
            try harness.drive(line, high: high)
            after.append(harness.loop.now)
        }
        return (0..<(levels.count - 1)).map { after[$0 + 1] - before[$0] }.max() ?? .zero
    }

    /// Makes `glitches` short make/break pairs, then settles in the pressed or released
    /// state (an active-low button: pressed is low); returns the number of transitions made.
    private func bounce(_ line: String, pressed: Bool, glitches: Int) throws -> Int {
        for _ in 0..<glitches {
            try harness.drive(line, high: !pressed)
            try harness.drive(line, high: pressed)
        }
        try harness.drive(line, high: !pressed)
        return glitches * 2 + 1
    }

    private func describe(_ edges: [LineEdge]) -> String {
        "[" + edges.map { "\($0.active ? "+" : "-")#\($0.sequence)" }.joined(separator: " ") + "]"
    }
}
