// `pinhole doctor`: says what this board still lacks for its profile, and how to fix it.

import ArgumentParser
import SystemPackage
import PinholeAppliance
import PinholeBoard
import PinholeConfiguration
import PinholeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Checks the board against a profile.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check this board against its profile: camera, GPIO lines, overlay, UART, user, library, clock.",
        discussion: """
            Each item is "ok NAME: what was found" or "problem NAME: what is wrong" followed by "fix: what to do".
            Exit status 1 when anything is wrong, 65 when the profile or configuration cannot be read.
            """)

    @Option(
        help:
            "Board: a profile name under board/ or a path (default: [board] name in the configuration, else auto)."
    )
    var board: String?

    @Option(help: "Configuration file (default /etc/pinhole/pinhole.toml when it exists).")
    var config: FilePath?

    @Option(help: "Photo library directory (default: the configuration's, else the service's).")
    var library: FilePath?

    @Option(help: "The user the service runs as.")
    var user = "pinhole"

    func run() throws {
        let settings: Configuration
        let profile: BoardProfile
        let note: String
        do {
            settings = try Configuration.load(file: config)
            (profile, note) = try BoardCatalog().resolve(board ?? settings.board ?? "auto")
        } catch {
            LineWriter.standardError.write("error: \(error)")
            throw ExitCode(65)
        }
        let libraryPath =
            library ?? settings.libraryPath ?? Self.environment("PINHOLE_LIBRARY").map { FilePath($0) }
            ?? "/var/lib/pinhole/library"
        // gpsd: checked when the configuration asks for GPS ([gps] gpsd = "HOST:PORT").
        let doctor = Doctor(
            board: profile, user: user, libraryPath: libraryPath,
            consoleDevice: settings.consoleDevice ?? profile.consoleDevice,
            gpsd: settings.gps.host.map { ($0, settings.gps.port) })
        print("board \(profile.name): \(note)")
        let serviceInstalled = access("/lib/systemd/system/pinhole.service", F_OK) == 0
        let items =
            doctor.examine(LinuxDoctorProbe()) + [WebWiring.doctorItem(settings)]
            + [WebWiring.unitItem(settings, serviceInstalled: serviceInstalled)].compactMap { $0 }
            + [
                RunCommand.encoderDoctorItem(
                    settings.video,
                    ringSeconds: RunCommand.ringSeconds(
                        video: settings.video, live: settings.livePhotos, board: profile))
            ]
        for item in items {
            for line in item.lines { print(line) }
        }
        let problems = items.filter { !$0.ok }.count
        print(
            problems == 0
                ? "all \(items.count) items OK" : "\(problems) of \(items.count) items need attention")
        if problems > 0 { throw ExitCode(1) }
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
