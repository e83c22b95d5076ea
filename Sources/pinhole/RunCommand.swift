// `pinhole run`: wires a board, its cameras, the library and the console together and runs them.

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
import PinholeSimBoard
import PinholeSystem
import SystemPackage

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
    var config: FilePath?

    @Option(help: "Photo library directory.")
    var library: FilePath?

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
    /// The folders `library thumbnail --out` may never write into: the configuration file's,
    /// and the device's (/etc/pinhole).
    static func configurationFolders(_ file: FilePath?) -> [FilePath] {
        let device = Configuration.defaultFile.removingLastComponent()
        guard let file, file.components.count > 1 else { return [device] }
        let folder = file.removingLastComponent()
        return folder.isEmpty || folder == device ? [device] : [device, folder]
    }

    static func settingsFile(configuration: FilePath?, library: FilePath) -> SettingsFile {
        if let configuration { return SettingsFile.beside(configuration: configuration) }
        return SettingsFile(path: library.appending("camera-settings.toml"))
    }

    /// Builds the appliance, its console and its services in named steps, runs the loop until
    /// something stops it, and takes everything down again (outputs off on every way out).
    func run() throws {
        MallocArenas.useOneArena()
        SignalWatcher.blockTerminationSignals()
        let logRouter = LogRouter()
        let log = logRouter.logger()
        let setup = try readSetup()
        let library = try openLibrary(setup, log: log)
        let hardware = try Self.hardware(for: setup.profile, simulated: setup.simulated, loop: setup.loop)
        let appliance = Self.buildAppliance(setup, library: library, hardware: hardware, log: log)
        let timelapse = Self.attachTimelapse(to: appliance, library: library, log: log)
        Self.attachRecorder(
            to: appliance, video: setup.settings.video, live: setup.settings.livePhotos,
            library: library.library,
            log: log)
        do { try appliance.start() } catch {
            appliance.shutdown()
            throw StartFailure(error)
        }
        defer { appliance.shutdown() }  // outputs off on every way out
        Self.startTimelapse(timelapse, settings: setup.settings.timelapse, log: log)
        let gps = Self.attachField(to: appliance, settings: setup.settings)
        defer { gps?.stop() }
        let runner = try buildConsole(
            setup, library: library, appliance: appliance, hardware: hardware, log: log)
        let web = try WebWiring.start(
            settings: setup.settings, runner: runner, appliance: appliance, library: library.library, log: log
        )
        defer { web?.stop() }
        let stop = Self.wireStopping(
            setup, appliance: appliance, runner: runner, logRouter: logRouter, log: log)
        Self.runUntilStopped(setup, library: library, runner: runner, stop: stop)
        runner.finish()
        appliance.shutdown()
        Self.logOutputsAtExit(hardware, log: log)
        if stop.powerOff { PowerOff.request(log: log) }
    }

    /// Once an hour, off the loop: purge photos past their time in Recently Deleted and
    /// checkpoint the database's log.
    static func scheduleMaintenance(of library: PhotoLibrary, on loop: EventLoop, log: Logger) {
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
    static func startTimelapse(
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

    struct Hardware {
        var gpio: any GPIOBackend
        var cameras: any CameraProvider
        var simulation: SimulationControl?
    }

    static func hardware(for profile: BoardProfile, simulated: Bool, loop: EventLoop) throws
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
