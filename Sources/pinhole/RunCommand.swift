// `pinhole run`: wires a board, its cameras, the library and the console together and runs them.

import ArgumentParser
import Logging
import PinholeAppliance
import PinholeConfiguration
import PinholeConsole
import PinholeCore
import PinholeImaging
import PinholeLibrary
import PinholeLibraryCommandLine
import PinholeLinux
import PinholeSim
import PinholeSimBoard

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the appliance.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the camera appliance.",
        discussion: """
            With --board sim (or auto on a machine without a device tree) the simulated board runs:
            two cameras, buttons and LEDs, the console on the terminal. When standard input is not a
            terminal the console is in line mode: one command a line, one answer a line.
            """)

    @Option(help: "Board: auto, sim, a profile name under board/, or a path to a profile.")
    var board: String?

    @Option(help: "Configuration file (default /etc/pinhole/pinhole.toml when it exists).")
    var config: String?

    @Option(help: "Photo library directory.")
    var library: String?

    @Option(
        help:
            "Console: stdio, a serial device such as /dev/ttyAMA0, or auto (the configured device, else the board profile's)."
    )
    var console: String?

    @Option(help: "Serial speed for --console DEVICE.")
    var baud: Int?

    @Option(help: "Console mode: auto (menu on a terminal, line mode otherwise), menu, or line.")
    var consoleMode: ConsoleRunner.Mode?

    @Option(help: "Clock: real, or virtual (simulated board only: time jumps ahead while a command waits).")
    var clock: ClockChoice = .real

    enum ClockChoice: String, ExpressibleByArgument {
        case real, virtual
    }

    /// Camera settings live beside the configuration file in use; without one (a laptop
    /// running the simulated board), beside the photo library.
    static func settingsFile(configuration: String?, library: String) -> SettingsFile {
        if let configuration { return SettingsFile.beside(configuration: configuration) }
        return SettingsFile(path: library + "/camera-settings.toml")
    }

    func run() throws {
        SignalWatcher.blockTerminationSignals()
        let logRouter = LogRouter()
        let log = logRouter.logger()
        let settings: Configuration
        do { settings = try Configuration.load(file: config) } catch {
            throw StartFailure(error)
        }
        let (profile, note): (BoardProfile, String)
        do { (profile, note) = try BoardCatalog().resolve(board ?? settings.board ?? "auto") } catch {
            throw StartFailure(error)
        }
        let simulated = profile.name == "sim"
        if clock == .virtual && !simulated {
            throw ValidationError("--clock virtual works only with the simulated board")
        }
        let loop = EventLoop(mode: clock == .virtual ? .virtual(wallStart: systemWallNow()) : .realTime)
        let libraryPath = library ?? LibraryCommand.defaultDirectory(configured: settings.libraryPath)
        let photoLibrary: PhotoLibrary
        do {
            photoLibrary = try PhotoLibrary.open(at: libraryPath, now: { systemWallNow() })
        } catch {
            throw StartFailure(message: "cannot open the photo library at \(libraryPath): \(error)")
        }
        log.info("board \(profile.name) (\(note)), library \(libraryPath)")
        let settingsFile = Self.settingsFile(configuration: settings.file, library: libraryPath)
        let timelapseStateFile = libraryPath + "/timelapse-state.toml"
        // Each is written durably through a temporary file beside it, which a power cut can leave.
        for file in [settings.file, settingsFile.path, timelapseStateFile].compactMap({ $0 }) {
            for removed in Configuration.removeStaleTemporaries(of: file) {
                log.notice("removed \(removed), left by an interrupted write (power cut?)")
            }
        }
        Self.scheduleMaintenance(of: photoLibrary, on: loop, log: log)
        let watch = LibraryWatch(library: photoLibrary, loop: loop)
        watch.start()

        let hardware = try Self.hardware(for: profile, simulated: simulated, loop: loop)
        let appliance = Appliance(
            loop: loop, board: profile, gpio: hardware.gpio, cameras: hardware.cameras,
            encoder: PhotoEncoder(quality: settings.jpegQuality),
            store: LibraryPhotoStore(library: photoLibrary, directory: libraryPath, watch: watch),
            software: "Pinhole \(Pinhole.version)")
        appliance.settingsFile = settingsFile
        appliance.observe { event in
            switch event {
            case .problem(let message): log.warning("\(message)")
            case .notice(let message): log.info("\(message)")
            case .recording(let recording): log.info("\(recording.line)")
            case .captureFailed(let error): log.error("capture failed: \(error)")
            case .saved(let capture):
                log.info("\(capture.journalText)")
            case .button(let function, let buttonEvent):
                switch buttonEvent {
                case .pressed(let at):
                    log.info("button \(function.rawValue) pressed (first edge \(at))")
                case .released(_, let heldFor):
                    log.info(
                        "button \(function.rawValue) released after \(Int(heldFor.milliseconds)) ms")
                case .held, .repeated: break
                }
            default: break
            }
        }
        // What the library's open-time recovery did; an export a power cut interrupted stays a
        // problem in `status` until it is redone (`library export --redo N`) or forgotten.
        let recovery = photoLibrary.recoveryReport
        let exportLines = Set(recovery.interruptedExports.map(\.line))
        for line in recovery.lines where !exportLines.contains(line) { log.notice("recovery: \(line)") }
        for export in recovery.interruptedExports { appliance.problem(export.line) }
        appliance.standby.after = settings.standbyAfterSeconds.map { .seconds($0) }
        appliance.engine.maxFramesInFlight = settings.framesInFlight
        appliance.lowStorageBytes = Int64(settings.lowStorageMB) << 20
        appliance.storagePolicy.whenFull = StoragePolicy.WhenFull(rawValue: settings.whenFull) ?? .stop
        let timelapse = TimelapseController(
            appliance: appliance, stateFile: timelapseStateFile)
        timelapse.onEvent = { log.info("\($0)") }
        appliance.timelapse = timelapse
        Self.attachRecorder(to: appliance, video: settings.video, library: photoLibrary, log: log)
        do { try appliance.start() } catch {
            appliance.shutdown()
            throw StartFailure(error)
        }
        defer { appliance.shutdown() }  // outputs off on every way out
        Self.startTimelapse(timelapse, settings: settings.timelapse, log: log)
        let gps = settings.gps.host.map {
            GPSTracker(host: $0, port: settings.gps.port, loop: loop, connector: TCPLineConnector())
        }
        appliance.attachField(
            gps: gps,
            clock: ClockTrustMonitor(loop: loop, clock: LinuxSystemClock(), setClock: settings.gps.setClock))
        defer { gps?.stop() }

        var consoleChoice = console ?? settings.consoleDevice ?? "stdio"
        if consoleChoice == "auto" {
            consoleChoice = settings.consoleDevice ?? profile.consoleDevice ?? "stdio"
        }
        var powerOff = false
        let runner: ConsoleRunner
        do {
            runner = try ConsoleRunner(
                appliance: appliance, simulation: hardware.simulation,
                library: { words in try LibraryCommandLine.execute(words, library: photoLibrary) },
                reader: LibraryMenuReader(library: photoLibrary),
                choice: consoleChoice,
                baud: baud ?? settings.consoleBaud ?? profile.consoleBaud,
                mode: consoleMode ?? ConsoleRunner.Mode(rawValue: settings.consoleMode) ?? .auto,
                settings: settings, log: { log.notice("\($0)") })
        } catch {
            throw StartFailure(error)
        }
        let watched = LoopBound(runner, loop: loop)
        watch.onChange { watched.value.menu.libraryChanged() }
        runner.onShutdown = { off in
            powerOff = off && !simulated
            loop.stop()
        }
        appliance.onShutdownRequest = { request in
            runner.event("shutdown \(request.reason)")
            log.notice("\(request.reason): shutting down\(request.powerOff ? " and powering off" : "")")
            powerOff = request.powerOff
            loop.stop()
        }
        SignalWatcher.start(loop: loop) { name in
            log.notice("\(name): shutting down")
            loop.stop()
        }
        let console = LoopBound(runner, loop: loop)
        let toConsole: @Sendable (Logger.Level, String) -> Void = { level, line in
            loop.post { console.value.logLine(line, important: level >= .warning) }
        }
        runner.onTerminalOwnership = { owned in logRouter.divert(to: owned ? toConsole : nil) }
        runner.start()
        // Under systemd (Type=notify): ready once the console runs; the loop pings the watchdog.
        let systemd = SystemdNotifier()
        systemd.notify("READY=1\nSTATUS=board \(profile.name), library \(libraryPath)")
        systemd.startWatchdog(on: loop)
        loop.run(isBusy: { runner.isBusy })
        systemd.stopWatchdog(on: loop)
        systemd.notify("STOPPING=1")
        runner.finish()
        appliance.shutdown()
        if let gpio = hardware.gpio as? SimulatedGPIO {  // leftovers check on the simulated board
            let outputs =
                gpio.outputsOn.isEmpty ? "all off" : "left on " + gpio.outputsOn.joined(separator: " ")
            log.info("outputs at exit: \(outputs)")
        }
        if powerOff { PowerOff.request(log: log) }
    }

    /// Once an hour, off the loop: purge photos past their time in Recently Deleted and
    /// checkpoint the database's log.
    private static func scheduleMaintenance(of library: PhotoLibrary, on loop: EventLoop, log: Logger) {
        loop.schedule(after: .seconds(3600)) {
            loop.offload(
                { Result { try library.maintain() } },
                then: { outcome in
                    switch outcome {
                    case .success(let purged) where !purged.isEmpty:
                        log.info("library maintenance purged \(purged.count) expired photos")
                    case .failure(let error): log.error("library maintenance failed: \(error)")
                    default: break
                    }
                    scheduleMaintenance(of: library, on: loop, log: log)
                })
        }
    }

    /// Resumes a timelapse that was running, else starts the configured one.
    private static func startTimelapse(
        _ timelapse: TimelapseController, settings: TimelapseSettings?, log: Logger
    ) {
        if let message = timelapse.resume() {
            log.info("\(message)")
            if timelapse.state != nil { return }
        }
        guard let settings else { return }
        let plan = TimelapsePlan(
            intervalMs: settings.everyMs, count: settings.count,
            window: settings.window.map { DailyWindow(fromMinute: $0.from, toMinute: $0.to) },
            album: settings.album,
            lock: settings.lock)
        do {
            let status = try timelapse.start(plan)
            log.info("timelapse from the configuration: \(status.line)")
        } catch {
            log.error("the configured timelapse could not start: \(error)")
        }
    }

    private struct Hardware {
        var gpio: any GPIOBackend
        var cameras: any CameraProvider
        var simulation: SimulationControl?
    }

    private static func hardware(for profile: BoardProfile, simulated: Bool, loop: EventLoop) throws
        -> Hardware
    {
        if simulated {
            let gpio = SimulatedGPIO(loop: loop, lineNames: profile.lineNames)
            let world = SimWorld()
            // The simulated board's cameras take as long to start as real ones (standby wakes).
            let cameras = SimulatedCameraProvider(
                loop: loop, world: world,
                specs: [SimCameraSpec.back, .front].map {
                    $0.startingAfter(SimCameraSpec.typicalStartupLatency)
                })
            let control = SimBoardControl(gpio: gpio, world: world, board: profile, loop: loop)
            return Hardware(gpio: gpio, cameras: cameras, simulation: control)
        }
        // Real boards: cameras through libcamera, buttons and LEDs through libgpiod v2.
        return Hardware(gpio: LinuxGPIO(loop: loop), cameras: LibcameraProvider(loop: loop), simulation: nil)
    }
}
