// `pinhole board check PATH`: validates a board profile.

import ArgumentParser
import PinholeAppliance

/// Board profile tools.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board", abstract: "Board profile tools.", subcommands: [Check.self, GPIOCheck.self])

    /// Validates a profile and prints what it wires.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a board profile (a board.toml file or its directory).")

        @Argument(help: "Profile file or directory.")
        var path: String

        func run() throws {
            let file = path.hasSuffix(".toml") ? path : path + "/board.toml"
            let profile: BoardProfile
            do { profile = try BoardCatalog().load(file: file) } catch {
                throw ValidationError("\(error)")
            }
            print("ok \(file): \(profile.description)")
            for (function, wiring) in profile.buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                print("  button \(function.rawValue): \(wiring.line)\(wiring.activeLow ? " active-low" : "")"
                    + " \(wiring.bias.rawValue) debounce \(Int(wiring.debounce.milliseconds)) ms")
            }
            for (function, wiring) in profile.outputs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                print("  output \(function.rawValue): \(wiring.line)\(wiring.activeLow ? " active-low" : "")")
            }
            for camera in profile.cameras {
                print("  camera \(camera.match): \(camera.position?.rawValue ?? "as reported")"
                    + "\(camera.torch ? ", torch" : ""), mount rotation \(camera.mountRotation)°")
            }
        }
    }
}
