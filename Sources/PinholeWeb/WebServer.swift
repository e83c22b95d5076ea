// The web gallery's HTTP server: Hummingbird on NIO's shared event loops, started and stopped
// by the appliance, with clear errors at start.

import Dispatch
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import PinholeCore
import ServiceLifecycle
import Synchronization
import SystemPackage

/// What the server is configured with (`[web]` in the configuration file).
public struct WebServerOptions: Sendable {
    /// The host to listen on (an IPv6 address without brackets).
    public var host: String
    /// The port (0: any free port, for tests).
    public var port: Int
    /// `open = true`: listen as configured even when no PIN is set.
    public var open = false
    /// PEM certificate chain and private key for HTTPS (both or neither).
    public var certificate: FilePath?
    /// The certificate's key.
    public var key: FilePath?
    /// How long a login lasts.
    public var sessionLifetime: Duration = .seconds(12 * 3600)
    /// The live view's frame rate at most.
    public var liveFPS = 5
    /// How long one write of an answer may wait for a client that takes no bytes (live view,
    /// event stream, downloads) before it is disconnected.
    public var stallLimit: Duration = .seconds(10)
    /// Where the settings came from, for errors ("/etc/pinhole/pinhole.toml:12").
    public var source = "[web]"

    /// Options for `host:port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}

/// Why the server did not start: names the key and what to change.
public struct WebStartError: Error, CustomStringConvertible {
    /// The message.
    public var description: String
}

/// A running web server.
public final class WebServer: Sendable {
    /// Where it listens, as `HOST:PORT` (the port it really got).
    public let address: String
    /// Whether it listens only on loopback because no PIN is set.
    public let loopbackOnly: Bool
    /// A sentence for the log and `status` (nil when nothing needs saying).
    public let warning: String?
    private let task: Task<Void, Never>
    private let services: ServiceGroup
    private let group: MultiThreadedEventLoopGroup
    /// Whether `group` is this server's own (shut down when it stops).
    private let ownsGroup: Bool
    private static let concurrencyOnEventLoops = Atomic<Bool>(false)
    /// Cached thumbnails answered before the router (`ThumbnailFastPath`).
    let fastPath: ThumbnailFastPath.Shared
    /// The `Server` header.
    static let serverName = "Pinhole"
    /// A connection with no request for this long is closed.
    static let idleTimeout = Duration.seconds(30)

    /// Makes NIO's shared event loops Swift concurrency's global executor, so that a request's
    /// handler runs on the thread that read it and writes its answer there: no thread switch
    /// per request (they were most of a thumbnail's cost). Servers started afterwards use those
    /// loops. Call once, on the main thread, before any Swift concurrency work (the process's
    /// only async work is the web server's); later calls do nothing. Returns whether the loops
    /// run Swift concurrency (false when something else set the runtime's hook first: then every
    /// request hops to Dispatch's threads and back).
    @discardableResult
    public static func runConcurrencyOnEventLoops() -> Bool {
        let installed = takeOver
        concurrencyOnEventLoops.store(installed, ordering: .relaxed)
        return installed
    }

    /// Tried once in the process's life.
    private static var takeOver: Bool { EventLoopGlobalExecutor.installed }

    /// Starts listening, or throws `WebStartError` (bad address, port in use, certificate
    /// missing or unreadable). `hasPIN`: whether the console has a PIN; without one and
    /// without `open`, the server binds to loopback only.
    public init(
        options: WebServerOptions, backend: any WebBackend, hasPIN: Bool,
        now: @escaping @Sendable () -> Instant,
        logger: Logger
    ) throws {
        var host = options.host
        var loopbackOnly = false
        var warning: String?
        if !hasPIN {
            if options.open {
                warning =
                    "web: no PIN is set and [web] open = true: anyone on the network can use the camera and its photos"
            } else if !Self.isLoopback(host) {
                host = host.contains(":") ? "::1" : "127.0.0.1"
                loopbackOnly = true
                warning =
                    "web: no PIN is set, so the web gallery listens on loopback only: set a PIN (`pin set`) or [web] open = true"
            }
        }
        var tls: TLSConfiguration?
        if let certificate = options.certificate, let key = options.key {
            do {
                let chain = try NIOSSLCertificate.fromPEMFile(certificate.string)
                let privateKey = try NIOSSLPrivateKey(file: key.string, format: .pem)
                tls = TLSConfiguration.makeServerConfiguration(
                    certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
            } catch {
                throw WebStartError(
                    description:
                        "\(options.source): [web] certificate '\(certificate)' or key '\(key)' cannot be read as PEM (\(error)): make them as the README's TLS section says, or remove both keys for plain HTTP"
                )
            }
        }
        let sessions = WebSessions(
            lifetime: options.sessionLifetime, now: now, pinGeneration: { backend.pinGeneration })
        let routes = WebRoutes(
            backend: backend, sessions: sessions, liveFPS: options.liveFPS, secure: tls != nil,
            stallLimit: options.stallLimit)
        ownsGroup = !Self.concurrencyOnEventLoops.load(ordering: .relaxed)
        group = ownsGroup ? MultiThreadedEventLoopGroup(numberOfThreads: 2) : .singleton
        let fastPath = ThumbnailFastPath.Shared(
            sessions: sessions, thumbnails: routes.thumbnails, serverName: Self.serverName,
            routeEvery: Self.idleTimeout / 2, now: now)
        self.fastPath = fastPath
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ThumbnailFastPath(shared: fastPath)],
            idleTimeout: .seconds(Int64(Self.idleTimeout.components.seconds)))
        let server: HTTPServerBuilder
        if let tls {
            do { server = try .tls(.http1(configuration: http), tlsConfiguration: tls) } catch {
                throw WebStartError(description: "\(options.source): [web] TLS setup failed: \(error)")
            }
        } else {
            server = .http1(configuration: http)
        }
        let bound = Mutex<Result<Int, any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let app = Application(
            router: routes.router(), server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: options.port), serverName: Self.serverName, reuseAddress: true),
            onServerRunning: { channel in
                bound.withLock { $0 = .success(channel.localAddress?.port ?? options.port) }
                ready.signal()
            },
            eventLoopGroupProvider: .shared(group), logger: logger)
        // A service group without signals (the appliance has its own): stopped gracefully.
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [app], gracefulShutdownSignals: [], logger: logger))
        self.services = services
        task = Task {
            do { try await services.run() } catch {
                let first = bound.withLock { state -> Bool in
                    guard state == nil else { return false }
                    state = .failure(error)
                    return true
                }
                if first { ready.signal() } else { logger.error("web server stopped: \(error)") }
            }
        }
        ready.wait()
        switch bound.withLock({ $0 })! {
        case .success(let port):
            let shown = host.contains(":") ? "[\(host)]" : host
            address = "\(shown):\(port)"
        case .failure(let error):
            if ownsGroup { try? group.syncShutdownGracefully() }
            throw WebStartError(description: Self.explain(error, options: options, host: host))
        }
        self.loopbackOnly = loopbackOnly
        self.warning = warning
    }

    /// Stops listening and closes every connection: gracefully, and after two seconds at
    /// most by cancelling what still runs (a live view or event stream never ends by itself).
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        Task { [services, task] in
            await services.triggerGracefulShutdown()
            let deadline = Task {
                try await Task.sleep(for: .seconds(2))
                task.cancel()
            }
            await task.value
            deadline.cancel()
            done.signal()
        }
        done.wait()
        if ownsGroup { try? group.syncShutdownGracefully() }
    }

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    private static func explain(_ error: any Error, options: WebServerOptions, host: String) -> String {
        let text = "\(error)"
        let listen = "\(options.source): [web] listen = \"\(host):\(options.port)\""
        if text.contains("Address already in use") || text.contains("EADDRINUSE") {
            return "\(listen): port \(options.port) is in use by another program: choose another port"
        }
        if text.contains("Cannot assign requested address") || text.contains("EADDRNOTAVAIL") {
            return
                "\(listen): this machine has no address \(host): use one of its addresses, or 0.0.0.0 for all"
        }
        if text.contains("Permission denied") || text.contains("EACCES") {
            return "\(listen): ports below 1024 need privileges the service does not have: use 8080 or above"
        }
        return "\(listen): cannot listen (\(text)): check the host and port"
    }
}
