// Test convenience: a console command written as its line-mode text, parsed by the catalog.

import PinholeConsole

extension ConsoleInvocation: ExpressibleByStringLiteral {
    /// Parses `value` as a line-mode line (a test's literal is always a valid command).
    public init(stringLiteral value: String) {
        do {
            guard let invocation = try CommandCatalog.parse(line: value) else {
                preconditionFailure("a blank line is not a command")
            }
            self = invocation
        } catch {
            preconditionFailure("'\(value)' does not parse: \(error)")
        }
    }
}
