// The console's line mode: one command a line, one answer a line, for people and scripts.

import PinholeAppliance
import PinholeCore

/// Line mode: reads commands, answers each with one line (`ok …`, a JSON document, or
/// `error <status>: <reason>`). Commands that take time (capture, sim press, sim wait)
/// answer when done; lines that arrive meanwhile wait their turn. Things that happen
/// outside a command (a button press) are reported as `event …` lines.
public final class LineModeConsole {
    let appliance: Appliance
    let simulation: SimulationControl?
    let library: (@Sendable ([String]) throws -> String)?
    let write: (String) -> Void
    /// Called after `quit` has been answered.
    public var onQuit: (() -> Void)?
    /// Called after `shutdown` has been answered, with whether to power off too (nil:
    /// shutdown stops like quit).
    public var onShutdown: ((_ powerOff: Bool) -> Void)?
    /// Switches to the interactive menu (nil: the console is not a terminal).
    public var onMenu: (() -> Void)?
    /// Called after `unparseableLimit` unparseable lines in a row (each answered `error 64`):
    /// the input gate starts a quiet wait. Lines waiting behind the last one are dropped.
    public var onUnparseableStreak: ((Int) -> Void)?
    /// Unparseable lines in a row that count as noise.
    public var unparseableLimit = 3
    private var unparseableStreak = 0
    /// Called when a line has been dealt with (answered, or blank): readers use it to keep
    /// a bounded number of lines in flight.
    public var onLineDone: (() -> Void)?

    private enum Input {
        case line(String)
        case command(ConsoleInvocation)
        case overlong(Int)
    }

    private var queue: [(input: Input, answer: ((String) -> Void)?)] = []
    private var running = false
    private var collected: [String] = []
    /// The longest command line accepted.
    public static let maximumLineLength = 4096
    /// Commands running or waiting.
    public var pendingCount: Int { queue.count + (running ? 1 : 0) }
    /// Access levels: library and settings behind the PIN (open when no PIN is set).
    public var access = AccessControl(pinHash: nil)
    /// How PINs are hashed and checked (nil: `unlock` and `pin set` are unavailable).
    public var pinHashing: PINHashing?
    /// Settings saved to the configuration file (nil: `settings`, `set`, `pin` unavailable).
    public var settingsStore: ConsoleSettings?
    /// Access as the menu shows it.
    public var accessSummary: AccessSummary { access.summary(at: appliance.loop.now) }

    /// A key or command from the person at the console: keeps an unlocked console unlocked.
    public func noteActivity() { access.touch(at: appliance.loop.now) }
    /// Whether a command is in progress or waiting.
    public var isBusy: Bool { running || !queue.isEmpty }

    /// Creates a console over an appliance. `write` receives each answer line, without newline.
    public init(
        appliance: Appliance, simulation: SimulationControl?,
        library: (@Sendable ([String]) throws -> String)?,
        write: @escaping (String) -> Void
    ) {
        self.appliance = appliance
        self.simulation = simulation
        self.library = library
        self.write = write
        appliance.observe { [weak self] event in self?.applianceEvent(event) }
    }

    /// Feeds one line of input; its answer goes to `write`.
    public func receive(line: String) {
        queue.append((.line(line), nil))
        if !running { next() }
    }

    /// Runs one command line in turn with the others; its answer goes to `answer` instead of
    /// `write` (the menu's command-line prompt uses this).
    public func submit(_ line: String, answer: @escaping (String) -> Void) {
        queue.append((.line(line), answer))
        if !running { next() }
    }

    /// Runs one command in turn with the others; its answer goes to `answer` instead of
    /// `write` (the interactive menu's items use this).
    public func submit(_ invocation: ConsoleInvocation, answer: @escaping (String) -> Void) {
        queue.append((.command(invocation), answer))
        if !running { next() }
    }

    /// Answers an unparseable line; after `unparseableLimit` in a row, drops the lines
    /// waiting behind it and reports the streak once the answer is out.
    private func unparseable(answer: @escaping (String) -> Void, _ text: String) {
        unparseableStreak += 1
        let streak = unparseableStreak
        guard streak >= unparseableLimit, onUnparseableStreak != nil else { return answer(text) }
        discardWaitingLines()
        answer(text)
        onUnparseableStreak?(streak)
    }

    /// Drops lines received and not yet started (input from before a quiet wait began).
    public func discardWaitingLines() {
        queue.removeAll {
            if case .command = $0.input { return false }
            return $0.answer == nil
        }
        unparseableStreak = 0
    }

    /// A line of input that was too long to be a command: answered with an error in turn.
    public func receiveOverlong(length: Int) {
        queue.append((.overlong(length), nil))
        if !running { next() }
    }

    private func next() {
        guard !queue.isEmpty else {
            running = false
            return
        }
        running = true
        let (input, sink) = queue.removeFirst()
        collected = []
        execute(input) { [weak self] answer in
            guard let self else { return }
            if let sink { sink(answer) } else { self.write(answer) }
            self.onLineDone?()
            self.next()
        }
    }

    private func applianceEvent(_ event: ApplianceEvent) {
        let text: String
        switch event {
        case .saved(let capture): text = "saved \(capture.photo.id) \(capture.photo.file)"
        case .captureFailed(let why): text = "capture-failed \(why)"
        case .cameraChanged(let camera):
            text = "camera \(camera.id) \(appliance.engine.position(of: camera).rawValue)"
        case .torch(let on): text = "torch \(on ? "on" : "off")"
        case .problem(let why): text = "problem \(why)"
        case .focusChanged(let mode, let reason): text = "af \(mode.rawValue) (\(reason.rawValue))"
        case .notice(let what): text = what
        case .recording(let recording): text = recording.line
        case .button: return
        }
        if running { collected.append(text) } else { write("event \(text)") }
    }

    /// Events collected during the current command (its answer may report them).
    var eventsDuringCommand: [String] { collected }

    private func execute(_ input: Input, answer: @escaping (String) -> Void) {
        let line: String
        switch input {
        case .line(let text): line = text
        case .command(let invocation):
            run(invocation, answer: answer)
            return
        case .overlong(let length):
            unparseable(
                answer: answer,
                Self.errorLine(
                    ConsoleError.usage(
                        "line too long (\(length) characters, at most \(Self.maximumLineLength)): it was ignored"
                    )))
            return
        }
        let invocation: ConsoleInvocation
        do {
            guard let parsed = try CommandCatalog.parse(line: line) else {
                onLineDone?()
                next()  // blank lines get no answer
                return
            }
            invocation = parsed
            unparseableStreak = 0
        } catch {
            noteActivity()
            unparseable(answer: answer, Self.errorLine(error, json: line.contains("--json")))
            return
        }
        run(invocation, answer: answer)
    }

    /// Runs a parsed command: checks access, then the command itself.
    private func run(_ invocation: ConsoleInvocation, answer: @escaping (String) -> Void) {
        let json = invocation.json
        noteActivity()
        if invocation.command.needsPIN, !access.isUnlocked(at: appliance.loop.now) {
            let remaining = access.lockoutRemaining(at: appliance.loop.now)
            let why =
                remaining > 0
                ? "locked: too many wrong PINs, try again in \(remaining) s"
                : "locked: unlock with the PIN first"
            answer(Self.errorLine(ConsoleError.locked(why), json: json))
            return
        }
        let reply: (Result<String, Error>) -> Void = { result in
            switch result {
            case .success(let text): answer(text)
            case .failure(let error): answer(Self.errorLine(error, json: json))
            }
        }
        do {
            try invocation.command.run(on: self, json: json, reply: reply)
        } catch {
            reply(.failure(error))
        }
    }

    /// Formats an error answer: `error STATUS: reason`, or its JSON form.
    public static func errorLine(_ error: Error, json: Bool = false) -> String {
        let status = (error as? ConsoleError)?.status ?? 70
        let message = "\(error)"
        if json { return jsonLine(["error": message, "status": "\(status)"]) }
        return "error \(status): \(message)"
    }
}
