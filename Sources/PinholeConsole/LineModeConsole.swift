// The console's line mode: one command a line, one answer a line, for people and scripts.

import PinholeAppliance
import PinholeCore

/// Line mode: reads commands, answers each line with exactly one line (`ok …`, a JSON
/// document, or `error <status>: <reason>`; a blank line `ok`), in the order the lines came.
/// Commands that take time (capture, sim press, sim wait) answer when done; lines that
/// arrive meanwhile wait their turn. Things that happen outside a command (a button press, a
/// timelapse shot) are reported as `event …` lines: at once when no command is pending, else
/// right after the pending command's answer (at most `maximumHeldEvents` are held; more are
/// counted and reported in an `event overflow …` line).
public final class LineModeConsole {
    let appliance: Appliance
    let simulation: SimulationControl?
    let library: (@Sendable ([String]) throws -> String)?
    let write: (String) -> Void
    /// Called after `quit` has been answered.
    public var onQuit: (() -> Void)?
    /// Whether `quit` stops the appliance's service (a console on a serial device): then it
    /// needs the PIN and says so.
    public var quitStopsTheService = false
    /// Called after `shutdown` has been answered, with whether to power off too (nil:
    /// shutdown stops like quit).
    public var onShutdown: ((_ powerOff: Bool) -> Void)?
    /// Switches to the interactive menu (nil: the console is not a terminal).
    public var onMenu: (() -> Void)?
    /// Called after `unparseableLimit` unparseable lines in a row (each answered `error 64`),
    /// before the last one is answered: a serial line's input gate starts a quiet wait (and
    /// calls `dropWaitingLines`); on a pipe nothing happens and every line runs.
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
        /// A command whose sender has already passed the PIN (a web session).
        case authorized(ConsoleInvocation)
        case overlong(Int)
        case undecodable(Int)
        /// A line taken before a quiet wait began: answered, not run.
        case notRun(String)
    }

    private var queue: [(input: Input, answer: ((String) -> Void)?)] = []
    private var running = false
    /// Events that happened while a command was pending (their text, without `event `).
    private var held: [String] = []
    private var heldOverflow = 0
    /// Events held at most while a command is pending; more are counted, not kept.
    public static let maximumHeldEvents = 256
    /// Events not kept since the start because more than `maximumHeldEvents` happened during
    /// one command (each overflow is also reported in an `event overflow …` line).
    public private(set) var eventsLost = 0
    /// The longest command line accepted.
    public static let maximumLineLength = 4096
    /// Commands running or waiting.
    public var pendingCount: Int { queue.count + (running ? 1 : 0) }
    /// Access levels: library and settings behind the PIN (open when no PIN is set).
    public var access = AccessControl(pinHash: nil) {
        didSet {
            let record = access.persistent
            if record != oldValue.persistent { onAccessRecordChanged?(record) }
            if access.pinHash != oldValue.pinHash { onPINChange?() }
        }
    }
    /// Called when the PIN was set, changed or cleared (the web server ends its sessions).
    public var onPINChange: (() -> Void)?
    /// Called when what of the access state survives a restart changed (a wrong PIN, a
    /// lock-out, a right PIN): the runner saves it, so a power cycle grants no fresh tries.
    public var onAccessRecordChanged: ((AccessRecord) -> Void)?
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

    /// Creates a console over an appliance. `write` receives each answer line, without newline,
    /// with control characters written as `\xHH` (see `visibleControls`).
    public init(
        appliance: Appliance, simulation: SimulationControl?,
        library: (@Sendable ([String]) throws -> String)?,
        write: @escaping (String) -> Void
    ) {
        self.appliance = appliance
        self.simulation = simulation
        self.library = library
        // Every line out, answers and events alike, with control characters made visible.
        self.write = { write($0.visibleControls) }
        appliance.observe { [weak self] event in self?.applianceEvent(event) }
    }

    /// Lines of input received (`receive(line:)`, overlong and undecodable ones): each is
    /// answered exactly once, in turn.
    public private(set) var linesReceived = 0

    /// Feeds one line of input; its answer goes to `write`.
    public func receive(line: String) {
        linesReceived += 1
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

    /// Runs one command in turn with the others for a sender that has already passed the
    /// PIN itself (a web session logged in with it): the console's own lock is not asked.
    public func submitAuthorized(_ invocation: ConsoleInvocation, answer: @escaping (String) -> Void) {
        queue.append((.authorized(invocation), answer))
        if !running { next() }
    }

    /// Answers an unparseable line; after `unparseableLimit` in a row, reports the streak
    /// first (a serial line's gate then starts a quiet wait before the next line can run).
    private func unparseable(answer: @escaping (String) -> Void, _ text: String) {
        unparseableStreak += 1
        if unparseableStreak >= unparseableLimit { onUnparseableStreak?(unparseableStreak) }
        answer(text)
    }

    /// A quiet wait began: lines received and not yet started (input from before it, maybe
    /// noise) are not run, but each is still answered in its turn (`error 64: not run: …`).
    public func dropWaitingLines(because reason: String) {
        for index in queue.indices where queue[index].answer == nil {
            switch queue[index].input {
            case .command, .authorized, .notRun: continue
            case .line, .overlong, .undecodable: queue[index].input = .notRun(reason)
            }
        }
        unparseableStreak = 0
    }

    /// A line of input that was too long to be a command: answered with an error in turn.
    public func receiveOverlong(length: Int) {
        linesReceived += 1
        queue.append((.overlong(length), nil))
        if !running { next() }
    }

    /// A line of input that held bytes that are not text: answered with an error in turn.
    public func receiveUndecodable(bytes: Int) {
        linesReceived += 1
        queue.append((.undecodable(bytes), nil))
        if !running { next() }
    }

    /// One piece of assembled input, answered in turn.
    public func receive(_ piece: LineAssembler.Piece) {
        switch piece {
        case .line(let line): receive(line: line)
        case .overlong(let length): receiveOverlong(length: length)
        case .undecodable(let bytes): receiveUndecodable(bytes: bytes)
        }
    }

    private func next() {
        guard !queue.isEmpty else {
            running = false
            return
        }
        running = true
        let (input, sink) = queue.removeFirst()
        execute(input) { [weak self] answer in
            guard let self else { return }
            if let sink { sink(answer) } else { self.write(answer) }
            self.writeHeldEvents()
            self.onLineDone?()
            self.next()
        }
    }

    /// Writes the events held during the command just answered, in the order they happened,
    /// and how many were not kept.
    private func writeHeldEvents() {
        let events = held
        let lost = heldOverflow
        held.removeAll()
        heldOverflow = 0
        for event in events { write("event " + event) }
        if lost > 0 {
            write(
                "event overflow: \(lost) events during one command were not kept (at most "
                    + "\(Self.maximumHeldEvents) are held; \(eventsLost) since the start)")
        }
    }

    /// Events held during the current command, taken for its answer (not written again after it).
    func takeEventsDuringCommand() -> [String] {
        defer { held.removeAll() }
        return held
    }

    /// The current command's answer reports what these events say (its photos: `saved ID`,
    /// the camera it chose: `camera `, the torch it set: `torch `): they are not written again.
    func answerReports(eventsStartingWith prefixes: [String]) {
        held.removeAll { event in prefixes.contains { event.hasPrefix($0) } }
    }

    private func applianceEvent(_ event: ApplianceEvent) {
        guard let text = Self.eventText(event, appliance: appliance) else { return }
        guard running else { return write("event \(text)") }
        if held.count < Self.maximumHeldEvents {
            held.append(text)
        } else {
            heldOverflow += 1
            eventsLost += 1
        }
    }

    /// An appliance event as line mode reports it after `event ` (nil: not reported). The
    /// web gallery's event stream uses the same words.
    public static func eventText(_ event: ApplianceEvent, appliance: Appliance) -> String? {
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
        case .button: return nil
        }
        return text
    }

    private func execute(_ input: Input, answer: @escaping (String) -> Void) {
        let line: String
        switch input {
        case .line(let text): line = text
        case .command(let invocation):
            run(invocation, answer: answer)
            return
        case .authorized(let invocation):
            run(invocation, authorized: true, answer: answer)
            return
        case .overlong(let length):
            unparseable(
                answer: answer,
                Self.errorLine(
                    ConsoleError.usage(
                        "line too long (\(length) characters, at most \(Self.maximumLineLength)): it was ignored"
                    )))
            return
        case .undecodable(let bytes):
            unparseable(
                answer: answer,
                Self.errorLine(
                    ConsoleError.usage(
                        "the line held \(bytes) bytes that are not text (invalid UTF-8 or NUL): it was ignored"
                    )))
            return
        case .notRun(let reason):
            answer(Self.errorLine(ConsoleError.usage("not run: \(reason)")))
            return
        }
        let invocation: ConsoleInvocation
        do {
            guard let parsed = try CommandCatalog.parse(line: line) else {
                answer("ok")  // a blank line: answered too, so that every line has one answer
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
    private func run(
        _ invocation: ConsoleInvocation, authorized: Bool = false, answer: @escaping (String) -> Void
    ) {
        let json = invocation.json
        if !authorized { noteActivity() }
        if !authorized, invocation.command.needsPIN, !access.isUnlocked(at: appliance.loop.now) {
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
