// Wires the console to stdio or a serial device: menu on a terminal, line mode otherwise;
// reopens a serial device that hung up or was unplugged.

#if canImport(Glibc)
    import Glibc
#endif
import ArgumentParser
import PinholeAppliance
import PinholeConfiguration
import PinholeConsole
import PinholeCore
import PinholeLinux
import PinholeSystem
import SystemPackage

/// Runs the console for `pinhole run`: chooses stdio or a serial device, menu or line mode,
/// moves bytes between the device and the consoles, and survives the device going away.
final class ConsoleRunner {
    /// How the console starts.
    enum Mode: String {
        case auto, menu, line
    }

    private let loop: EventLoop
    private let device: String?
    private let baud: Int
    private let simulated: Bool
    private let log: (String) -> Void
    let lineMode: LineModeConsole
    let menu: InteractiveConsole
    private var port: SerialPort?
    private var raw: RawTerminal?
    private var input: InputPump?
    private var output: OutputPump?
    /// Every byte passes the gate first: noise starts a quiet wait instead of acting.
    let gate: ConsoleInputGate
    /// Line mode's input path (gate, lines, console), the one the command fuzzer drives.
    private var reader: LineModeReader!
    private var inMenu = false
    private var inputEnded = false
    private var reconnectTimer: TimerID?
    private var pausedInput = false
    /// Lines in flight at most before input is read again.
    static let maximumPendingLines = 64
    /// How often a vanished serial device is looked for.
    static let reopenInterval: Duration = .seconds(1)

    /// The console on `choice` ("stdio" or a device path) for `appliance`.
    init(
        appliance: Appliance, simulation: SimulationControl?,
        library: (@Sendable ([String]) throws -> String)?,
        reader: LibraryReading?,
        choice: String, baud: Int, mode: Mode, settings: Configuration, accessStateFile: FilePath? = nil,
        log: @escaping (String) -> Void
    ) throws {
        loop = appliance.loop
        simulated = simulation != nil
        device = choice == "stdio" ? nil : choice
        self.baud = baud
        self.log = log
        let sink = LoopBound(LineSink(), loop: loop)
        lineMode = LineModeConsole(appliance: appliance, simulation: simulation, library: library) { line in
            sink.value.write?(line)
        }
        let screen = LoopBound(LineSink(), loop: loop)
        menu = InteractiveConsole(appliance: appliance, commands: lineMode, colour: false) { bytes in
            screen.value.bytes?(bytes)
        }
        let isTerminal: Bool
        if let device {
            port = try SerialPort(device: FilePath(device), baud: baud)
            gate = ConsoleInputGate(
                loop: loop, quietPeriod: .seconds(settings.consoleQuietSeconds), marked: port!.marksLineErrors
            )
            output = OutputPump(fd: port!.fd)
            isTerminal = true
        } else {
            gate = ConsoleInputGate(loop: loop, quietPeriod: .seconds(settings.consoleQuietSeconds))
            gate.enabled = false  // a script or the process's own terminal: not a serial line
            isTerminal = isatty(0) == 1 && isatty(1) == 1
            if isTerminal { output = OutputPump(fd: 1) }
        }
        menu.colour = settings.consoleColour ?? (device == nil && Self.terminalHasColour())
        var access = AccessControl(
            pinHash: settings.consolePINHash,
            idleTimeout: .seconds(settings.consoleIdleLockSeconds),
            maximumFailures: settings.consoleMaxPINFailures,
            lockout: .seconds(settings.consoleLockoutSeconds))
        if let accessStateFile {
            // Wrong PINs and a lock-out survive a restart: a power cycle grants no fresh tries.
            // Missing: none yet. Unreadable: refuse to start rather than forget them.
            let text: String?
            do { text = try FileSystem.readTextIfPresent(accessStateFile) } catch {
                throw ConsoleRunnerError(
                    "cannot read \(accessStateFile) (\(error)): it holds the console's wrong-PIN count; "
                        + "make it readable by the service or remove it")
            }
            if let text { access.restore(AccessRecord(text: text), at: appliance.loop.now) }
            lineMode.onAccessRecordChanged = { [log] record in
                do {
                    try DurableFiles.write(Array(record.text.utf8), to: accessStateFile, replace: true)
                } catch {
                    log("console access state not saved to \(accessStateFile): \(error)")
                }
            }
        }
        lineMode.access = access
        menu.unicode = settings.consoleUnicode
        let store = ConsoleSettings(configuration: settings, file: settings.file ?? Configuration.defaultFile)
        store.onChange = { [unowned self, device] saved in
            menu.colour = saved.consoleColour ?? (device == nil && Self.terminalHasColour())
            menu.unicode = saved.consoleUnicode
            lineMode.access.idleTimeout = .seconds(saved.consoleIdleLockSeconds)
            lineMode.access.maximumFailures = saved.consoleMaxPINFailures
            lineMode.access.lockout = .seconds(saved.consoleLockoutSeconds)
        }
        lineMode.settingsStore = store
        let hasher = CryptPINHasher()
        lineMode.pinHashing = PINHashing(
            hash: { try hasher.hash($0) }, verify: { hasher.verify($0, against: $1) })
        sink.value.write = { [unowned self] line in writeLine(line) }
        screen.value.bytes = { [unowned self] bytes in output?.send(bytes) }
        lineMode.onLineDone = { [unowned self] in lineDone() }
        if isTerminal {
            lineMode.onMenu = { [unowned self] in enterMenu() }
            menu.onLineMode = { [unowned self] in enterLineMode() }
        }
        menu.onQuit = { [unowned self] in loop.stop() }
        menu.library = reader
        menu.outputBusy = { [unowned self] in (output?.pendingBytes ?? 0) > 0 }
        lineMode.onQuit = { [unowned self] in loop.stop() }
        lineMode.quitStopsTheService = device != nil
        wireGate(appliance: appliance, quiet: settings.consoleQuietSeconds)
        inMenu = mode == .menu || (mode == .auto && isTerminal)
        if mode == .menu && !isTerminal {
            throw ConsoleRunnerError(
                "the menu needs a terminal: standard input or output is not one (use --console-mode line)")
        }
    }

    private func wireGate(appliance: Appliance, quiet: Int) {
        reader = LineModeReader(gate: gate, console: lineMode) { [unowned self] line in writeLine(line) }
        let wake = "when the line has been quiet for \(quiet) s, press Enter twice"
        reader.wakeHint = wake
        gate.deliver = { [unowned self] bytes in pass(bytes) }
        gate.onQuiet = { [unowned self] reason in
            if inMenu {
                lineMode.dropWaitingLines(because: "line noise began before it ran (\(reason))")
                reader.reset()
                menu.notice("Line noise: input is ignored. \(wake.capitalizedFirst).")
            } else {
                reader.quietBegan(reason: reason)
            }
        }
        gate.onSpell = { spell in appliance.problem(spell.logLine) }
        gate.onSecondEnterDue = { [unowned self] in
            if inMenu {
                menu.notice("Line noise: press Enter once more to wake the console.")
            } else {
                writeLine("event noise: press Enter once more to wake the console")
            }
        }
        gate.onWoke = { [unowned self] spells, bytes in
            if inMenu {
                menu.terminalReconnected()
                menu.notice("Listening again: \(bytes) bytes of line noise were ignored (see log)")
            } else {
                reader.woke(bytes: bytes)
            }
        }
    }

    /// Called with true when the menu starts drawing on this process's own terminal (log lines
    /// must then stay off standard error) and with false when it stops.
    var onTerminalOwnership: ((Bool) -> Void)?

    /// Called when a console asks for a safe shutdown, with whether to power off.
    var onShutdown: ((Bool) -> Void)? {
        didSet { lineMode.onShutdown = onShutdown }
    }

    /// Reports something that happened outside a command (`event …` in line mode, the log in
    /// the menu).
    func event(_ text: String) {
        if inMenu { menu.note(text) } else { writeLine("event " + text) }
    }

    /// A log line while the menu owns this terminal: kept on the Logs page and, when
    /// `important` (warnings and worse), shown on the message line too.
    func logLine(_ text: String, important: Bool) {
        guard inMenu else { return LineWriter.standardError.write("pinhole: " + text) }
        menu.note(text)
        if important { menu.notice(text) }
    }

    /// Starts reading and, in menu mode, draws the menu.
    func start() {
        gate.menuMode = inMenu
        if inMenu { enterMenu() }
        startReading(fd: port?.fd ?? 0)
    }

    /// Whether a line-mode command is running (virtual time jumps ahead only then).
    var isBusy: Bool {
        if inputEnded && !lineMode.isBusy { loop.stop() }
        return lineMode.isBusy
    }

    /// Puts the terminal back (colours off, cursor shown, settings restored). What the
    /// consoles queued goes out first (at most two seconds for a terminal that stopped
    /// reading): the menu's last bytes move the cursor below the screen and show it again.
    func finish() {
        if inMenu { menu.stop() }
        output?.drain(withinSeconds: 2)
        if device == nil { onTerminalOwnership?(false) }
        raw?.restore()
        raw = nil
    }

    // MARK: Modes

    private func enterMenu() {
        if device == nil, raw == nil {
            do { raw = try RawTerminal(fd: 0) } catch { log("\(error): staying in line mode") }
        }
        inMenu = true
        gate.menuMode = true
        if device == nil { onTerminalOwnership?(true) }
        menu.decorate = { [device, simulated] snapshot in
            snapshot.canQuit = device == nil
            snapshot.simulated = simulated
        }
        menu.start()
        menu.terminalReconnected()
    }

    private func enterLineMode() {
        menu.stop()
        if device == nil { onTerminalOwnership?(false) }
        raw?.restore()
        raw = nil
        inMenu = false
        gate.menuMode = false
        reader.reset()
        writeLine("ok line mode: one command a line; `help` lists them, `menu` returns")
    }

    private func writeLine(_ line: String) {
        if inMenu {
            menu.note(line)
            return
        }
        if let output {
            output.send(Array((line + (device == nil ? "\n" : "\r\n")).utf8))
        } else {
            LineWriter.standardOutput.write(line)
        }
    }

    // MARK: Input

    private func startReading(fd: Int32) {
        let runner = LoopBound(self, loop: loop)
        // Reads are stamped on the loop's own clock where another thread may read it (real
        // time); a virtual clock moves only on the loop, so there the gate stamps on arrival.
        let clock = loop
        var stamp: (@Sendable () -> Instant)?
        if !clock.isVirtual { stamp = { @Sendable in clock.now } }
        let pump = InputPump(
            fd: fd, loop: loop, stamp: stamp,
            onBytes: { bytes, arrival in
                runner.value.received(bytes, at: arrival)
            },
            onEnd: { code in
                runner.value.ended(code)
            })
        input = pump
        pump.start()
    }

    private func received(_ bytes: [UInt8], at arrival: Instant?) {
        gate.receive(bytes, at: arrival)
        if inMenu || gate.isQuiet { input?.resume() } else { resumeIfRoom() }
    }

    /// Input the gate let through.
    private func pass(_ bytes: [UInt8]) {
        if inMenu {
            menu.receive(bytes)
            if output?.takeOverflow() == true { menu.terminalReconnected() }
            return
        }
        reader.pass(bytes)
    }

    private func lineDone() {
        if pausedInput { resumeIfRoom() }
        if inputEnded {  // check once the console has moved on to its next line
            loop.schedule(after: .zero) { [weak self] in
                guard let self, !lineMode.isBusy else { return }
                loop.stop()
            }
        }
    }

    private func resumeIfRoom() {
        if lineMode.pendingCount < Self.maximumPendingLines {
            pausedInput = false
            input?.resume()
        } else {
            pausedInput = true
        }
    }

    private func ended(_ code: Errno?) {
        input = nil
        guard let device else {
            reader.finish()
            inputEnded = true
            if !inMenu, !lineMode.isBusy { loop.stop() }
            if inMenu { loop.stop() }
            return
        }
        let reason = code.map { "\($0)" } ?? "end of file"
        log(
            "console \(device) went away (\(reason)): reopening it every \(Int(Self.reopenInterval.seconds)) s"
        )
        output?.retarget(-1)  // before the descriptor is closed and its number reused
        port = nil
        // Whoever plugs in next starts locked.
        lineMode.access.lock()
        scheduleReopen(device)
    }

    private func scheduleReopen(_ device: String) {
        reconnectTimer = loop.schedule(after: Self.reopenInterval) { [weak self] in
            guard let self else { return }
            do {
                let port = try SerialPort(device: FilePath(device), baud: baud)
                self.port = port
                output?.retarget(port.fd)
                reader.reset()
                lineMode.access.lock()  // reopened: a new person may be at the other end
                log("console \(device) is back")
                startReading(fd: port.fd)
                if inMenu { menu.terminalReconnected() }
            } catch {
                scheduleReopen(device)
            }
        }
    }

    private static func terminalHasColour() -> Bool {
        if getenv("NO_COLOR") != nil { return false }
        guard let term = getenv("TERM").map({ String(cString: $0) }) else { return false }
        if term == "dumb" || term.hasPrefix("vt1") || term.hasPrefix("vt2") { return false }
        return term.contains("color")
            || ["xterm", "screen", "tmux", "rxvt", "linux"].contains { term.hasPrefix($0) }
    }
}

/// Late-bound output closures (the consoles are created before the runner is complete).
private final class LineSink {
    var write: ((String) -> Void)?
    var bytes: (([UInt8]) -> Void)?
}

/// A console set-up error, shown as the reason `pinhole run` could not start.
struct ConsoleRunnerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension ConsoleRunner.Mode: ExpressibleByArgument {}

extension String {
    /// The text with its first letter in upper case.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
