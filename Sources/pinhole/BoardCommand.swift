// `pinhole board check PATH`: validates a board profile and prints what it wires.

import ArgumentParser
import PinholeAppliance
import PinholeBoard
import PinholeConfiguration
import PinholeCore
import PinholeLinux
import SystemPackage

/// Board profile tools.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board", abstract: "Board profile tools.",
        subcommands: [Check.self, Off.self])

    /// Validates a profile and prints what it wires.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a board profile (a board.toml file or its directory).",
            discussion:
                "Prints what the profile wires; a mistake is reported as FILE:LINE: reason, exit status 65.")

        @Argument(help: "Profile file or directory.")
        var path: FilePath

        func run() throws {
            let file = path.extension == "toml" ? path : path.appending("board.toml")
            let profile: BoardProfile
            do { profile = try BoardCatalog().load(file: file) } catch {
                LineWriter.standardError.write("error: \(error)")
                throw ExitCode(65)
            }
            for line in Self.describe(profile, file: file) { print(line) }
        }

        /// The lines printed for a valid profile.
        static func describe(_ profile: BoardProfile, file: FilePath) -> [String] {
            var lines = ["ok \(file): \(profile.description)"]
            if let model = profile.model { lines.append("  model \(model)") }
            if let chip = profile.gpioChip { lines.append("  gpio chip \(chip)") }
            for (function, wiring) in profile.buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let kernel = wiring.kernelDebounce ? " (kernel too)" : " (software only)"
                let repeats = wiring.repeatInterval.map { ", repeat \(Int($0.milliseconds)) ms" } ?? ""
                lines.append(
                    "  button \(function.rawValue): \(wiring.line)\(wiring.activeLow ? " active-low" : "")"
                        + " \(wiring.bias.rawValue) debounce \(Int(wiring.debounce.milliseconds)) ms\(kernel),"
                        + " hold \(Int(wiring.holdTime.milliseconds)) ms\(repeats)")
            }
            for (function, wiring) in profile.outputs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                lines.append(
                    "  output \(function.rawValue): \(wiring.line)\(wiring.activeLow ? " active-low" : "")")
            }
            for chord in profile.chords {
                lines.append(
                    "  chord \(chord.action.rawValue): \(chord.buttons.map(\.rawValue).sorted().joined(separator: " + "))"
                        + " held \(Int(chord.hold.milliseconds)) ms\(chord.powerOff ? ", then power off" : "")"
                )
            }
            if let tilt = profile.tilt {
                lines.append(
                    "  tilt: a0_b0 \(tilt.rotation(a: false, b: false))°, a1_b0 \(tilt.rotation(a: true, b: false))°,"
                        + " a1_b1 \(tilt.rotation(a: true, b: true))°, a0_b1 \(tilt.rotation(a: false, b: true))°"
                )
            }
            for camera in profile.cameras {
                lines.append(
                    "  camera \(camera.match): \(camera.position?.rawValue ?? "as reported")"
                        + "\(camera.torch ? ", torch" : ""), mount rotation \(camera.mountRotation)°")
            }
            lines.append("  console \(profile.consoleDevice ?? "stdio") at \(profile.consoleBaud) baud")
            return lines
        }
    }

    /// Turns every output of a board off while Pinhole is not running.
    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Turn every output of the board off (LEDs, torch, flash, buzzer) while Pinhole is not running.",
            discussion: """
                The systemd unit runs this after Pinhole stops, so a crash never leaves the torch on.
                Exit status 1 when an output could not be turned off (for example, another program holds it).
                """)

        @Option(
            help:
                "Board: auto, a profile name under board/, or a path to a profile (default: [board] name in the configuration, else auto)."
        )
        var board: String?

        @Option(help: "Configuration file (default /etc/pinhole/pinhole.toml when it exists).")
        var config: FilePath?

        func run() throws {
            let profile: BoardProfile
            do {
                let settings = try Configuration.load(file: config)
                profile = try BoardCatalog().resolve(board ?? settings.board ?? "auto").0
            } catch {
                LineWriter.standardError.write("error: \(error)")
                throw ExitCode(65)
            }
            guard profile.name != "sim" else {
                print("ok simulated board: its outputs live and die with pinhole run")
                return
            }
            let result = OutputSafety.turnAllOff(
                board: profile, gpio: LinuxGPIO(loop: EventLoop(mode: .realTime)))
            if !result.off.isEmpty { print("ok off: " + result.off.joined(separator: ", ")) }
            for failure in result.failed { LineWriter.standardError.write("error: \(failure)") }
            if !result.failed.isEmpty { throw ExitCode(1) }
        }
    }
}
