// Simulated GPIO lines: inputs driven by injected edges (with bounce), outputs recorded with their times.

import PinholeCore

/// One recorded change of a simulated output line.
public struct OutputChange: Sendable, Hashable {
    /// When it happened.
    public var time: Instant
    /// The line.
    public var line: String
    /// The new logical value.
    public var value: Bool
}

/// A simulated GPIO chip with named lines.
///
/// Inputs behave like the kernel's: physical level changes become logical edges after
/// active-low is applied, and a non-zero debounce delays an edge until the line has been
/// stable that long (the edge then carries the time it was reported, as the kernel's does).
/// Every output change is recorded so tests can assert on the history. Outputs keep their
/// level when released without being turned off, as real lines do when a process dies
/// (`crash()`); requesting an output drives it to its initial value, off.
///
/// A line nobody drives from outside (see `setLevel(_:high:)` and `undrive(_:)`) follows the
/// bias it was requested with, as gpio-sim's do: pull-down reads low, pull-up (or no bias,
/// or no request) high. Outputs honour active-low: `outputLevel(_:)` is the physical level.
public final class SimulatedGPIO: GPIOBackend {
    private let loop: EventLoop
    /// Names of the lines this chip has.
    public let lineNames: [String]
    /// The consumer name a busy line reports as its holder (this process's, as on hardware).
    public let consumer: String
    private var inputs: [String: SimInputLine] = [:]
    private var outputs: [String: SimOutputLine] = [:]
    /// Physical level each line is driven to from outside (true = high); absent: the bias decides.
    private var driven: [String: Bool] = [:]
    /// Logical level of every output line ever driven, requested or not.
    private var outputLevels: [String: Bool] = [:]
    /// Whether each output line ever driven was last requested active-low.
    private var outputActiveLow: [String: Bool] = [:]
    /// Every output change since creation.
    public private(set) var history: [OutputChange] = []
    /// Every logical edge delivered to an owner.
    public private(set) var deliveredEdges: [LineEdge] = []

    /// Creates a chip with the given line names; `consumer` names the holder of a busy line.
    public init(loop: EventLoop, lineNames: [String], consumer: String = "pinhole") {
        self.loop = loop
        self.lineNames = lineNames
        self.consumer = consumer
    }

    /// Requests a simulated input; an unknown or already requested line is an error, as on
    /// hardware.
    public func requestInput(_ config: InputLineConfig, onEdge: @escaping (LineEdge) -> Void) throws
        -> any InputLine
    {
        try checkAvailable(config.name)
        let line = SimInputLine(config: config, chip: self, onEdge: onEdge)
        inputs[config.name] = line
        line.lastReported = logical(config.name)
        return line
    }

    /// Requests a simulated output, driving it off (recorded if it was left on).
    public func requestOutput(name: String, activeLow: Bool) throws -> any OutputLine {
        try checkAvailable(name)
        let line = SimOutputLine(name: name, chip: self)
        outputs[name] = line
        outputActiveLow[name] = activeLow
        if outputLevels[name] == true { recordOutput(name, false) }
        outputLevels[name] = false
        return line
    }

    private func checkAvailable(_ name: String) throws {
        guard lineNames.contains(name) else { throw GPIOError.lineNotFound(name, searched: ["gpio-sim"]) }
        if inputs[name] != nil || outputs[name] != nil { throw GPIOError.lineBusy(name, consumer: consumer) }
    }

    /// The physical level of an input (true = high): as driven from outside, else by its bias.
    public func level(_ name: String) -> Bool {
        if let high = driven[name] { return high }
        return inputs[name]?.config.bias != .pullDown
    }

    /// The logical value of an input (true = active).
    public func logical(_ name: String) -> Bool {
        let high = level(name)
        let activeLow = inputs[name]?.config.activeLow ?? true
        return activeLow ? !high : high
    }

    /// The physical level of an output (true = high; active-low applied), requested or left
    /// behind, or nil if it was never driven.
    public func outputLevel(_ name: String) -> Bool? {
        outputLevels[name].map { $0 != (outputActiveLow[name] ?? false) }
    }

    /// The current level of an output line (requested or left behind), or nil if it was
    /// never driven.
    public func outputValue(_ name: String) -> Bool? { outputLevels[name] }

    /// Simulates the owning process dying: every request is dropped, and outputs stay at
    /// whatever level they had (a torch left on stays on).
    public func crash() {
        for line in inputs.values { line.abandon() }
        for line in outputs.values { line.abandon() }
        inputs.removeAll()
        outputs.removeAll()
    }

    /// Whether a line is currently requested.
    public func isRequested(_ name: String) -> Bool { inputs[name] != nil || outputs[name] != nil }

    /// Sets an input's logical level now (true = active), as a clean edge.
    public func drive(_ name: String, active: Bool) {
        // Unrequested lines are taken as active-low buttons.
        let activeLow = inputs[name]?.config.activeLow ?? true
        setLevel(name, high: activeLow ? !active : active)
    }

    /// Drives a line's physical level from outside now (true = high), as gpio-sim's `pull`
    /// does; a requested input sees an edge if its level changes.
    public func setLevel(_ name: String, high: Bool) {
        let before = level(name)
        driven[name] = high
        levelMayHaveChanged(name, from: before)
    }

    /// Stops driving a line from outside: it follows its bias again.
    public func undrive(_ name: String) {
        let before = level(name)
        driven[name] = nil
        levelMayHaveChanged(name, from: before)
    }

    private func levelMayHaveChanged(_ name: String, from before: Bool) {
        guard let input = inputs[name], level(name) != before else { return }
        input.levelChanged(at: loop.now, active: logical(name))
    }

    /// Schedules a button press on an input: `bounce` extra chatter transitions on press and
    /// on release, each within a few milliseconds, and a hold of `hold` between them.
    /// Returns when the line will be stable again after the release.
    @discardableResult
    public func press(_ name: String, hold: Duration, bounce: Int, seed: UInt64 = 1) -> Instant {
        var random = SplitMix64(seed: seed &+ UInt64(loop.now.nanoseconds))
        var t = loop.now
        func chatter(ending active: Bool) {
            // Bounce: the contact makes and breaks `bounce` times before settling.
            for index in 0..<(bounce * 2) {
                let level = index % 2 == 0 ? active : !active
                let at = t
                loop.schedule(at: at) { [weak self] in self?.drive(name, active: level) }
                t = t + .microseconds(Int64(100 + random.next() % 900))
            }
            let at = t
            loop.schedule(at: at) { [weak self] in self?.drive(name, active: active) }
        }
        chatter(ending: true)
        t = t + hold
        chatter(ending: false)
        return t
    }

    fileprivate func deliver(_ edge: LineEdge, to line: SimInputLine) {
        deliveredEdges.append(edge)
        line.onEdge(edge)
    }

    fileprivate func schedule(at instant: Instant, _ action: @escaping () -> Void) -> TimerID {
        loop.schedule(at: instant, action)
    }

    fileprivate func cancel(_ id: TimerID) { loop.cancel(id) }

    fileprivate func recordOutput(_ name: String, _ value: Bool) {
        outputLevels[name] = value
        history.append(OutputChange(time: loop.now, line: name, value: value))
    }

    fileprivate func releaseInput(_ name: String) { inputs[name] = nil }
    fileprivate func releaseOutput(_ name: String) { outputs[name] = nil }

    /// Output lines that are on, requested or left behind (for leftovers checks).
    public var outputsOn: [String] { outputLevels.filter(\.value).map(\.key).sorted() }

    fileprivate var now: Instant { loop.now }
}

/// A requested simulated input line.
final class SimInputLine: InputLine {
    let config: InputLineConfig
    private weak var chip: SimulatedGPIO?
    let onEdge: (LineEdge) -> Void
    var lastReported = false
    private var sequence: UInt64 = 0
    private var debounceTimer: TimerID?

    init(config: InputLineConfig, chip: SimulatedGPIO, onEdge: @escaping (LineEdge) -> Void) {
        self.config = config
        self.chip = chip
        self.onEdge = onEdge
    }

    var name: String { config.name }

    func read() throws -> Bool { chip?.logical(name) ?? false }

    func release() {
        if let timer = debounceTimer { chip?.cancel(timer) }
        debounceTimer = nil
        chip?.releaseInput(name)
        chip = nil
    }

    /// Forgets the chip without telling it (the process died).
    func abandon() {
        if let timer = debounceTimer { chip?.cancel(timer) }
        chip = nil
    }

    func levelChanged(at time: Instant, active: Bool) {
        guard let chip else { return }
        if config.debounce == .zero {
            report(active: active, at: time)
            return
        }
        // Kernel debounce: report once stable for the debounce period.
        if let timer = debounceTimer { chip.cancel(timer) }
        debounceTimer = chip.schedule(at: time + config.debounce) { [weak self] in
            guard let self, let chip = self.chip else { return }
            self.debounceTimer = nil
            let value = chip.logical(self.name)
            if value != self.lastReported { self.report(active: value, at: chip.now) }
        }
    }

    private func report(active: Bool, at time: Instant) {
        lastReported = active
        sequence += 1
        chip?.deliver(LineEdge(line: name, active: active, timestamp: time, sequence: sequence), to: self)
    }
}

/// A requested simulated output line.
final class SimOutputLine: OutputLine {
    let name: String
    private weak var chip: SimulatedGPIO?
    private(set) var value = false

    init(name: String, chip: SimulatedGPIO) {
        self.name = name
        self.chip = chip
    }

    func set(_ on: Bool) throws {
        guard let chip else {
            throw GPIOError.system(operation: "set", line: name, errno: .badFileDescriptor)
        }
        guard on != value else { return }
        value = on
        chip.recordOutput(name, on)
    }

    func release() {
        try? set(false)
        chip?.releaseOutput(name)
        chip = nil
    }

    /// Forgets the chip without turning off (the process died).
    func abandon() { chip = nil }
}
