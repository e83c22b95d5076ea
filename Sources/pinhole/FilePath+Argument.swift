// Command-line options that name files and folders parse straight into FilePath.

import ArgumentParser
import SystemPackage

extension FilePath: @retroactive ExpressibleByArgument {
    /// A path option's value; an empty one is refused (it names no file).
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self.init(argument)
    }
}
