// `pinhole web files`: writes the service drop-in and the avahi file that match [web] listen;
// `pinhole web executor`: checks that Swift concurrency runs on the server's event loops.

import ArgumentParser
import SystemPackage
import PinholeConfiguration
import PinholeWeb

#if canImport(Glibc)
    import Glibc
#endif

/// `pinhole web …`: web gallery tools.
struct WebToolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web", abstract: "Web gallery tools.", subcommands: [Files.self, Executor.self])

    /// Writes the systemd drop-in and the avahi service file made from `[web]`.
    struct Files: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "files",
            abstract: "Write the service's network drop-in and the mDNS file that match [web] listen.",
            discussion: """
                The drop-in lets pinhole.service bind exactly [web] listen's port and answer only
                loopback (a loopback listen address, or no PIN without open = true) or loopback and
                the local networks. The avahi file announces the gallery at NAME.local (none for
                loopback). Run it again after changing [web] or setting the first PIN, then
                `systemctl daemon-reload && systemctl restart pinhole`. `pinhole doctor` says when
                the installed drop-in no longer matches.
                """)

        @Option(help: "Configuration file (default /etc/pinhole/pinhole.toml when it exists).")
        var config: FilePath?

        @Option(help: "Where the drop-in goes.")
        var dropIn = WebUnitFiles.dropInPath

        @Option(help: "Where the avahi service file goes.")
        var avahi = WebUnitFiles.avahiPath

        @Flag(
            help:
                "With [web] listen not set, write nothing and succeed (the package's postinst runs it on every install)."
        )
        var ifEnabled = false

        func run() throws {
            let settings: Configuration
            do { settings = try Configuration.load(file: config) } catch {
                throw ValidationError("\(error)")
            }
            guard let options = WebWiring.options(settings) else {
                if ifEnabled {
                    print("[web] listen is not set: the gallery is off, nothing written")
                    return
                }
                throw ValidationError("[web] listen is not set: the gallery is off, nothing to open")
            }
            let hasPIN = settings.consolePINHash != nil
            try Self.write(WebUnitFiles.dropIn(options, hasPIN: hasPIN), to: dropIn.string)
            print("wrote \(dropIn)")
            if let service = WebUnitFiles.avahiService(options, hasPIN: hasPIN) {
                try Self.write(service, to: avahi.string)
                print("wrote \(avahi)")
            } else if unlink(avahi.string) == 0 {
                print("removed \(avahi): the gallery listens on loopback only")
            }
            print("then: systemctl daemon-reload && systemctl restart pinhole")
        }

        private static func write(_ text: String, to path: String) throws {
            // Its folders as needed (/etc/avahi/services before avahi-daemon is installed).
            var folder = path.hasPrefix("/") ? "" : "."
            for part in path.split(separator: "/").dropLast() {
                folder += "/" + part
                mkdir(folder, 0o755)
            }
            guard let file = fopen(path, "w") else {
                throw ValidationError(
                    "\(path) cannot be written: run as root, or choose another path")
            }
            fputs(text, file)
            guard fclose(file) == 0 else { throw ValidationError("\(path) could not be written completely") }
        }
    }

    /// Checks that this build moves Swift concurrency onto the server's event loops.
    struct Executor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "executor",
            abstract: "Check that Swift concurrency runs on the web server's event loops in this build.",
            discussion: """
                `pinhole run` makes NIO's event loops Swift concurrency's global executor before it
                starts the gallery, so that a request's handler runs on the thread that read it.
                This does the same, runs a few tasks, and says where their jobs ran; it fails when
                they ran on other threads (each request would then hop threads twice).
                """)

        func run() throws {
            let check = EventLoopExecutorCheck.run()
            print(check.summary)
            if !check.passed { throw ExitCode.failure }
        }
    }
}
