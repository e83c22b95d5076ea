// Starts the web gallery for `pinhole run` when `[web] listen` is set, and reports it in
// `pinhole doctor`.

import Logging
import PinholeAppliance
import PinholeBoard
import PinholeConfiguration
import PinholeConsole
import PinholeCore
import PinholeLibrary
import PinholeSystem
import PinholeWeb
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The web gallery's wiring.
enum WebWiring {
    /// Starts the server on the console's commands and PIN (nil: `[web] listen` not set).
    /// Call on the loop's thread before the loop runs.
    static func start(
        settings: Configuration, runner: ConsoleRunner, appliance: Appliance, library: PhotoLibrary,
        log: Logger
    ) throws -> WebServer? {
        let web = settings.web
        guard let options = options(settings) else { return nil }
        let backend = ApplianceWebBackend(
            console: runner.lineMode, appliance: appliance, library: LibraryMenuReader(library: library),
            liveLongestSide: web.liveSize)
        if !WebServer.runConcurrencyOnEventLoops() {
            log.warning(
                "web: Swift concurrency could not move onto the server's event loops (its global-executor hook was already set): every request hops threads"
            )
        }
        let server: WebServer
        do {
            server = try WebServer(
                options: options, backend: backend, hasPIN: runner.lineMode.access.hasPIN,
                now: { Instant(nanoseconds: monotonicNanoseconds()) }, logger: log)
        } catch {
            throw StartFailure(message: "\(error)")
        }
        let scheme = web.certificate == nil ? "http" : "https"
        log.notice("web gallery at \(scheme)://\(server.address)/")
        if let warning = server.warning {
            log.warning("\(warning)")
            appliance.problem(warning)
        }
        return server
    }

    /// The server's options from `[web]` (nil: `listen` not set).
    static func options(_ settings: Configuration) -> WebServerOptions? {
        let web = settings.web
        guard let host = web.host else { return nil }
        var options = WebServerOptions(host: host, port: web.port)
        options.open = web.open
        options.certificate = web.certificate
        options.key = web.key
        options.sessionLifetime = .seconds(web.sessionMinutes * 60)
        options.liveFPS = web.liveFPS
        options.stallLimit = .seconds(web.stallTimeoutSeconds)
        options.source = "\(settings.file ?? Configuration.defaultFile):\(web.listenLine)"
        return options
    }

    /// `pinhole doctor`'s item for the service's drop-in: when the service is installed, the
    /// drop-in must be the one `pinhole web files` makes from `[web]` now.
    static func unitItem(_ settings: Configuration, serviceInstalled: Bool) -> DoctorItem? {
        guard serviceInstalled, let options = options(settings) else { return nil }
        let expected = WebUnitFiles.dropIn(options, hasPIN: settings.consolePINHash != nil)
        let installed = FileSystem.readBytes(WebUnitFiles.dropInPath).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard installed == expected else {
            return DoctorItem(
                name: "web service", ok: false,
                detail:
                    "\(WebUnitFiles.dropInPath) \(installed == nil ? "is missing" : "does not match [web]"): "
                    + "the service cannot serve [web] listen = \"\(options.host):\(options.port)\" as configured",
                remedy:
                    "sudo pinhole web files && sudo systemctl daemon-reload && sudo systemctl restart pinhole"
            )
        }
        return DoctorItem(name: "web service", ok: true, detail: "\(WebUnitFiles.dropInPath) matches [web]")
    }

    /// `pinhole doctor`'s web item.
    static func doctorItem(_ settings: Configuration) -> DoctorItem {
        let web = settings.web
        guard let listen = web.listen else {
            return DoctorItem(name: "web", ok: true, detail: "off ([web] listen is not set)")
        }
        let scheme = web.certificate == nil ? "http" : "https"
        for path in [web.certificate, web.key].compactMap({ $0 }) where access(path.string, R_OK) != 0 {
            return DoctorItem(
                name: "web", ok: false, detail: "\(path) cannot be read",
                remedy:
                    "make the certificate and key as the README's TLS section says, readable by the service")
        }
        if settings.consolePINHash == nil {
            if web.open {
                return DoctorItem(
                    name: "web", ok: false,
                    detail:
                        "\(scheme)://\(listen) with no PIN and open = true: anyone on the network can use it",
                    remedy: "set a PIN (`pinhole console hash-pin`, [console] pin_hash)")
            }
            if !WebServer.isLoopback(web.host ?? "") {
                return DoctorItem(
                    name: "web", ok: true,
                    detail:
                        "\(scheme) on loopback only, port \(web.port): no PIN is set ([web] listen = \"\(listen)\")"
                )
            }
        }
        return DoctorItem(name: "web", ok: true, detail: "\(scheme)://\(listen)")
    }
}
