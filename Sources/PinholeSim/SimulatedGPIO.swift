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
public final class SimulatedGPIO: GPIOBackend {
    private let loop: EventLoop
    /// Names of the lines this chip has.
    public let lineNames: [String]
    private var inputs: [String: SimInputLine] = [:]
    private var outputs: [String: SimOutputLine] = [:]
    /// Physical level of every input line (true = high). Unrequested lines float high (pull-up).
    private var levels: [String: Bool] = [:]
    /// Logical level of every output line ever driven, requested or not.
    private var outputLevels: [String: Bool] = [:]
    /// Every output change since creation.
    public private(set) var history: [OutputChange] = []
    /// Every logical edge delivered to an owner.
    public private(set) var deliveredEdges: [LineEdge] = []

    /// Creates a chip with the given line names.
    public init(loop: EventLoop, lineNames: [String]) {
        self.loop = loop
        self.lineNames = lineNames
    }

    /// Requests a simulated input; an unknown or already requested line is an error, as on
    /// hardware.
    public func requestInput(_ config: InputLineConfig, onEdge: @escaping (LineEdge) -> Void) throws
        -> any InputLine
    {
        try checkAvailable(config.name)
        let line = SimInputLine(config: config, chip: self, onEdge: onEdge)
        inputs[config.name] = line
        if levels[config.name] == nil {
            levels[config.name] = config.bias != .pullDown
        }
        line.lastReported = logical(config.name)
        return line
    }

    /// Requests a simulated output, driving it off (recorded if it was left on).
    public func requestOutput(name: String, activeLow: Bool) throws -> any OutputLine {
        try checkAvailable(name)
        let line = SimOutputLine(name: name, chip: self)
        outputs[name] = line
        if outputLevels[name] == true { recordOutput(name, false) }
        outputLevels[name] = false
        return line
    }

    private func checkAvailable(_ name: String) throws {
        guard lineNames.contains(name) else { throw GPIOError.lineNotFound(name, searched: ["gpio-sim"]) }
        if inputs[name] != nil || outputs[name] != nil { throw GPIOError.lineBusy(name, consumer: "pinhole") }
    }

    /// The logical value of an input (true = active).
    public func logical(_ name: String) -> Bool {
        let high = levels[name] ?? true
        let activeLow = inputs[name]?.config.activeLow ?? true
        return activeLow ? !high : high
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
        guard let input = inputs[name] else {
            levels[name] = !active  // unrequested lines are taken as active-low buttons
            return
        }
        let high = input.config.activeLow ? !active : active
        guard levels[name] != high else { return }
        levels[name] = high
        input.levelChanged(at: loop.now, active: active)
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
