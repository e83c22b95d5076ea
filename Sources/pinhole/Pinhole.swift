// The `pinhole` command: runs the appliance, works on a library, checks board profiles.

import ArgumentParser

/// The root command.
@main
struct Pinhole: ParsableCommand {
    /// The version from `git describe` at build time (tools/version), printed by `--version`.
    static let version = BuildVersion.string

    static let configuration = CommandConfiguration(
        commandName: "pinhole",
        abstract: "A camera appliance for Raspberry-Pi-class boards, and its simulated board.",
        version: version,
        subcommands: [
            RunCommand.self, LibraryCommand.self, BoardCommand.self, ConsoleToolsCommand.self,
            DoctorCommand.self, WebToolsCommand.self,
        ])
}
