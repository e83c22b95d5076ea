// The steps `pinhole run` takes to build the appliance, its console and its services, in order.

import ArgumentParser
import Logging
import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeConfiguration
import PinholeConsole
import PinholeCore
import PinholeField
import PinholeImaging
import PinholeLibrary
import PinholeLibraryCommandLine
import PinholeLinux
import PinholeSim
import SystemPackage

/// What `pinhole run` starts from: the configuration, the board, and the loop on its clock.
struct RunSetup {
    var settings: Configuration
    var profile: BoardProfile
    /// How the board was chosen ("from the device tree", "asked for" …), for the log.
    var note: String
    var simulated: Bool
    var loop: EventLoop
}

/// The photo library as the running appliance uses it, with the small state files beside it.
struct RunLibrary {
    var library: PhotoLibrary
    var path: FilePath
    var watch: LibraryWatch
    var settingsFile: SettingsFile
    var timelapseStateFile: FilePath
    /// Wrong PINs and a lock-out in force, kept across restarts.
    var accessStateFile: FilePath
}

/// How the run ended: whether the board powers off after it.
final class RunStop {
    var powerOff = false
    /// A stop was asked for: the loop runs on until the camera answered its stop (bounded).
    var requested = false
}

extension RunCommand {
    /// Step 1: the configuration file, the board profile, and the loop on a real or virtual
    /// clock. A bad file or an unknown board is a start failure naming file, line and reason.
    func readSetup() throws -> RunSetup {
        let settings: Configuration
        do { settings = try Configuration.load(file: config) } catch { throw StartFailure(error) }
        let (profile, note): (BoardProfile, String)
        do { (profile, note) = try BoardCatalog().resolve(board ?? settings.board ?? "auto") } catch {
            throw StartFailure(error)
        }
        let simulated = profile.name == "sim"
        if clock == .virtual && !simulated {
            throw ValidationError("--clock virtual works only with the simulated board")
        }
        let loop = EventLoop(mode: clock == .virtual ? .virtual(wallStart: systemWallNow()) : .realTime)
        return RunSetup(settings: settings, profile: profile, note: note, simulated: simulated, loop: loop)
    }

    /// Step 2: the photo library (its open-time recovery runs here), the temporary files a
    /// power cut left beside the state files, hourly maintenance, and the watch that keeps the
    /// photo count and the menu's pages true.
    func openLibrary(_ setup: RunSetup, log: Logger) throws -> RunLibrary {
        let path = library ?? LibraryCommand.defaultDirectory(configured: setup.settings.libraryPath)
        let photoLibrary: PhotoLibrary
        do {
            photoLibrary = try PhotoLibrary.open(
                at: path,
                options: LibraryOptions(protectedDirectories: Self.configurationFolders(setup.settings.file)),
                now: { systemWallNow() })
        } catch {
            throw StartFailure(message: "cannot open the photo library at \(path): \(error)")
        }
        log.info("board \(setup.profile.name) (\(setup.note)), library \(path)")
        // A cleanup that failed after a change that succeeded (a leftover file, a thumbnail
        // not cached) is logged from the thread that did the work.
        photoLibrary.reportCleanupFailures { text in log.warning("library: \(text)") }
        let settingsFile = Self.settingsFile(configuration: setup.settings.file, library: path)
        let timelapseStateFile = path.appending("timelapse-state.toml")
        let accessStateFile = path.appending("console-access.toml")
        // Each is written durably through a temporary file beside it, which a power cut can leave.
        let stateFiles = [setup.settings.file, settingsFile.path, timelapseStateFile, accessStateFile]
        for file in stateFiles.compactMap({ $0 }) {
            for removed in Configuration.removeStaleTemporaries(of: file) {
                log.notice("removed \(removed), left by an interrupted write (power cut?)")
            }
        }
        Self.scheduleMaintenance(of: photoLibrary, on: setup.loop, log: log)
        let watch = LibraryWatch(library: photoLibrary, loop: setup.loop)
        if let failure = watch.start() {
            log.warning(
                "cannot watch \(path) for other processes' changes (\(failure)): looking every second instead"
            )
        }
        return RunLibrary(
            library: photoLibrary, path: path, watch: watch, settingsFile: settingsFile,
            timelapseStateFile: timelapseStateFile, accessStateFile: accessStateFile)
    }

    /// Step 3: the appliance over the board's hardware, storing into the library; its events
    /// logged; what the library's recovery found reported; the configured settings applied.
    static func buildAppliance(
        _ setup: RunSetup, library: RunLibrary, hardware: Hardware, log: Logger
    ) -> Appliance {
        let settings = setup.settings
        let appliance = Appliance(
            loop: setup.loop, board: setup.profile, gpio: hardware.gpio, cameras: hardware.cameras,
            encoder: PhotoEncoder(quality: settings.jpegQuality),
            store: LibraryPhotoStore(library: library.library, directory: library.path, watch: library.watch),
            software: "Pinhole \(Pinhole.version)")
        appliance.settingsFile = library.settingsFile
        appliance.observe { event in logEvent(event, log: log) }
        // What the library's open-time recovery did; an export a power cut interrupted stays a
        // problem in `status` until it is redone (`library export --redo N`) or forgotten.
        let recovery = library.library.recoveryReport
        let exportLines = Set(recovery.interruptedExports.map(\.line))
        for line in recovery.lines where !exportLines.contains(line) { log.notice("recovery: \(line)") }
        for export in recovery.interruptedExports { appliance.problem(export.line) }
        appliance.standby.after = settings.standbyAfterSeconds.map { .seconds($0) }
        appliance.engine.maxFramesInFlight = settings.framesInFlight
        appliance.lowStorageBytes = Int64(settings.lowStorageMB) << 20
        appliance.storagePolicy.whenFull = StoragePolicy.WhenFull(rawValue: settings.whenFull) ?? .stop
        return appliance
    }

    /// The journal lines of the appliance's events.
    private static func logEvent(_ event: ApplianceEvent, log: Logger) {
        switch event {
        case .problem(let message): log.warning("\(message)")
        case .notice(let message): log.info("\(message)")
        case .recording(let recording): log.info("\(recording.line)")
        case .captureFailed(let error): log.error("capture failed: \(error)")
        case .saved(let capture): log.info("\(capture.journalText)")
        case .button(let function, .pressed(let at)):
            log.info("button \(function.rawValue) pressed (first edge \(at))")
        case .button(let function, .released(_, let heldFor)):
            log.info("button \(function.rawValue) released after \(Int(heldFor.milliseconds)) ms")
        default: break
        }
    }

    /// Step 4: the timelapse, whose progress lives beside the library (resumed or started
    /// from the configuration once the appliance runs).
    static func attachTimelapse(to appliance: Appliance, library: RunLibrary, log: Logger)
        -> TimelapseController
    {
        let timelapse = TimelapseController(appliance: appliance, stateFile: library.timelapseStateFile)
        timelapse.onEvent = { log.info("\($0)") }
        appliance.timelapse = timelapse
        return timelapse
    }

    /// Step 5: place and time: gpsd when `[gps] gpsd` is configured, and the clock's trust.
    static func attachField(to appliance: Appliance, settings: Configuration) -> GPSTracker? {
        let loop = appliance.loop
        let gps = settings.gps.host.map {
            GPSTracker(host: $0, port: settings.gps.port, loop: loop, connector: TCPLineConnector())
        }
        appliance.attachField(
            gps: gps,
            clock: ClockTrustMonitor(
                loop: loop, clock: LinuxSystemClock(), setClock: settings.gps.setClock,
                earliestSettableTime: WallTime(secondsSince1970: BuildVersion.commitSeconds)))
        return gps
    }

    /// Step 6: the console on stdio or the chosen serial device, with the library's command
    /// language and the menu's view of the library; library changes reload the menu's pages.
    func buildConsole(
        _ setup: RunSetup, library: RunLibrary, appliance: Appliance, hardware: Hardware, log: Logger
    ) throws -> ConsoleRunner {
        let settings = setup.settings
        var consoleChoice = console ?? settings.consoleDevice?.string ?? "stdio"
        if consoleChoice == "auto" {
            consoleChoice = (settings.consoleDevice ?? setup.profile.consoleDevice)?.string ?? "stdio"
        }
        let photoLibrary = library.library
        let runner: ConsoleRunner
        do {
            runner = try ConsoleRunner(
                appliance: appliance, simulation: hardware.simulation,
                library: { words in try LibraryCommandLine.execute(words, library: photoLibrary) },
                reader: LibraryMenuReader(library: photoLibrary),
                choice: consoleChoice,
                baud: baud ?? settings.consoleBaud ?? setup.profile.consoleBaud,
                mode: consoleMode ?? ConsoleRunner.Mode(rawValue: settings.consoleMode) ?? .auto,
                settings: settings, accessStateFile: library.accessStateFile, log: { log.notice("\($0)") })
        } catch {
            throw StartFailure(error)
        }
        let watched = LoopBound(runner, loop: setup.loop)
        library.watch.onChange { watched.value.menu.libraryChanged() }
        return runner
    }

    /// Step 7: what stops the loop (the console's shutdown, the shutdown chord, a signal), and
    /// log lines shown on the menu's Logs page while the menu owns the terminal; then the
    /// console starts.
    static func wireStopping(
        _ setup: RunSetup, appliance: Appliance, runner: ConsoleRunner, logRouter: LogRouter, log: Logger
    ) -> RunStop {
        let loop = setup.loop
        let stop = RunStop()
        let bound = LoopBound((appliance, stop), loop: loop)
        // Outputs off at once; the loop runs on (saves finish, the watchdog is fed) until the
        // camera answered its stop and close, or for `shutdownCameraWait`; a second request
        // stops at once.
        let stopping: @Sendable () -> Void = {
            let (appliance, stop) = bound.value
            guard !stop.requested else { return loop.stop() }
            stop.requested = true
            appliance.shutdown(waitingForCameraAtMost: appliance.shutdownCameraWait) { late in
                if let late { log.error("\(late)") }
                loop.stop()
            }
        }
        runner.onShutdown = { off in
            stop.powerOff = off && !setup.simulated
            stopping()
        }
        appliance.onShutdownRequest = { request in
            runner.event("shutdown \(request.reason)")
            log.notice("\(request.reason): shutting down\(request.powerOff ? " and powering off" : "")")
            stop.powerOff = request.powerOff
            stopping()
        }
        SignalWatcher.start(loop: loop) { name in
            log.notice("\(name): shutting down")
            stopping()
        }
        let console = LoopBound(runner, loop: loop)
        let toConsole: @Sendable (Logger.Level, String) -> Void = { level, line in
            loop.post { console.value.logLine(line, important: level >= .warning) }
        }
        runner.onTerminalOwnership = { owned in logRouter.divert(to: owned ? toConsole : nil) }
        runner.start()
        return stop
    }

    /// Step 8: runs the loop until something stops it; under systemd (Type=notify) it is
    /// ready once the console runs, and the loop pings the watchdog.
    static func runUntilStopped(_ setup: RunSetup, library: RunLibrary, runner: ConsoleRunner, stop: RunStop)
    {
        let systemd = SystemdNotifier()
        systemd.notify("READY=1\nSTATUS=board \(setup.profile.name), library \(library.path)")
        systemd.startWatchdog(on: setup.loop)
        // Virtual time moves on while a stop waits for the camera (its bound is a timer).
        setup.loop.run(isBusy: { runner.isBusy || stop.requested })
        systemd.stopWatchdog(on: setup.loop)
        systemd.notify("STOPPING=1")
    }

    /// On the simulated board, which outputs were left on at exit (all off is the promise).
    static func logOutputsAtExit(_ hardware: Hardware, log: Logger) {
        guard let gpio = hardware.gpio as? SimulatedGPIO else { return }
        let outputs = gpio.outputsOn.isEmpty ? "all off" : "left on " + gpio.outputsOn.joined(separator: " ")
        log.info("outputs at exit: \(outputs)")
    }
}
