// Build tool plugin: writes the `git describe` version into the pinhole executable at build time.

import Foundation
import PackagePlugin

/// Runs `tools/version --swift` before every build; the file is rewritten only when the
/// version changed, so an unchanged tree does not recompile anything.
@main
struct PinholeVersion: BuildToolPlugin {
    /// The prebuild command that writes `BuildVersion.swift`.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = context.package.directoryURL.appending(path: "tools/version")
        return [
            .prebuildCommand(
                displayName: "Pinhole version from git describe",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, "--swift", output.appending(path: "BuildVersion.swift").path],
                outputFilesDirectory: output)
        ]
    }
}
