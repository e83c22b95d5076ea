// Build tool plugin: lists the console's command types from Sources/PinholeConsole/Commands at build time.

import Foundation
import PackagePlugin

/// Runs `tools/command-list` before every build of PinholeConsole: each file
/// `Commands/VerbCommand.swift` holds the type `VerbCommand`, and the generated
/// `CommandList.swift` lists them all, so that adding a command is adding its file. The file is
/// rewritten only when the list changed, so an unchanged tree does not recompile anything.
@main
struct PinholeCommandList: BuildToolPlugin {
    /// The prebuild command that writes `CommandList.swift`.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = context.package.directoryURL.appending(path: "tools/command-list")
        let commands = target.directoryURL.appending(path: "Commands")
        return [
            .prebuildCommand(
                displayName: "Console command list from \(commands.lastPathComponent)/",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, commands.path, output.appending(path: "CommandList.swift").path],
                outputFilesDirectory: output)
        ]
    }
}
