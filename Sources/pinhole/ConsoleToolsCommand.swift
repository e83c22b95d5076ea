// `pinhole console hash-pin`: makes the PIN hash for the configuration file.

import ArgumentParser
import PinholeConsole
import PinholeLinux

#if canImport(Glibc)
    import Glibc
#endif

/// `pinhole console …`: console tools.
struct ConsoleToolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console", abstract: "Console tools.", subcommands: [HashPIN.self])

    /// Reads a PIN on standard input and prints its hash as a configuration line.
    struct HashPIN: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hash-pin",
            abstract: "Hash a console PIN (read from standard input) for [console] pin_hash.",
            discussion: """
                The PIN is read from standard input so that it stays out of the shell history and
                the process list: `printf '%s\\n' 2468 | pinhole console hash-pin`. Paste the printed
                line into the [console] table of the configuration file.
                """)

        func run() throws {
            guard let line = readLine(strippingNewline: true) else {
                throw ValidationError(
                    "no PIN on standard input: printf '%s\\n' PIN | pinhole console hash-pin")
            }
            let pin = try PINRules.validate(line)
            let hash: String
            do { hash = try CryptPINHasher().hash(pin) } catch { throw ValidationError("\(error)") }
            print("pin_hash = \"\(hash)\"")
        }
    }
}
