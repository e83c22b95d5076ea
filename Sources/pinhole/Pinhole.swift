// The `pinhole` command: runs the appliance, works on a library, checks board profiles.

import ArgumentParser

/// The root command.
@main
struct Pinhole: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "pinhole",
        abstract: "A camera appliance for Raspberry-Pi-class boards, and its simulated board.",
        version: version,
        subcommands: [RunCommand.self, LibraryCommand.self, BoardCommand.self, ConsoleCommand.self])
}
