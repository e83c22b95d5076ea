// The `[web]` table of the configuration file: the web gallery's address, openness and TLS.

import PinholeCore
import SystemPackage

/// `[web]` settings; the web gallery is off unless `listen` is set.
public struct WebSettings: Sendable, Hashable {
    /// `listen = "HOST:PORT"` as written; nil: the web server is off.
    public var listen: String?
    /// The host part of `listen` (an IPv6 address without its brackets).
    public var host: String?
    /// The port of `listen`.
    public var port = 0
    /// `open = true`: listen on the configured address even when no PIN is set (anyone on
    /// the network can then use the camera). Without it, no PIN means loopback only.
    public var open = false
    /// `certificate = "PATH"`: a PEM certificate (chain) for HTTPS; nil: plain HTTP.
    public var certificate: FilePath?
    /// `key = "PATH"`: the certificate's PEM private key.
    public var key: FilePath?
    /// `session_minutes`: how long a login lasts (default 720: twelve hours).
    public var sessionMinutes = 720
    /// `live_fps`: the live view's frame rate at most (1…15, default 5).
    public var liveFPS = 5
    /// `live_size`: the live view's longest side in pixels at most (160…1920, default 640);
    /// a larger viewfinder image is scaled down before it is sent.
    public var liveSize = 640
    /// `stall_timeout_s`: how long one write of an answer may wait for a client that takes no
    /// bytes (live view, event stream, original and archive downloads) before it is
    /// disconnected (1…600, default 10).
    public var stallTimeoutSeconds = 10
    /// The configuration file's line of `listen` (0: unknown), for errors at start.
    public var listenLine = 0

    /// Defaults: off.
    public init() {}

    /// Parses "HOST:PORT" or "[IPV6]:PORT"; a port is required (1…65535).
    public static func address(_ text: String) -> (host: String, port: Int)? {
        var rest = Substring(text)
        let host: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            rest = rest.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            host = rest[..<colon]
            rest = rest[rest.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        }
        guard !host.isEmpty, rest.allSatisfy(\.isASCII), rest.allSatisfy(\.isNumber), rest.count <= 5,
            let port = Int(rest), (1...65_535).contains(port),
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:_%".contains($0)) })
        else { return nil }
        return (String(host), port)
    }

    /// Reads the `[web]` table.
    static func parse(_ table: TOMLTable, file: FilePath) throws -> WebSettings {
        var settings = WebSettings()
        var r = TableReader(table: table, file: file, context: "[web]")
        if let listen = try r.string("listen") {
            guard let (host, port) = Self.address(listen) else {
                throw ConfigurationError(
                    file: file, line: table.line(of: "listen"),
                    reason:
                        "[web] listen is '\(listen)': use \"HOST:PORT\" with a port 1-65535, e.g. \"0.0.0.0:8080\" or \"[::]:8080\""
                )
            }
            settings.listen = listen
            settings.host = host
            settings.port = port
            settings.listenLine = table.line(of: "listen")
        }
        settings.open = try r.bool("open") ?? false
        settings.certificate = try r.string("certificate").map { FilePath($0) }
        settings.key = try r.string("key").map { FilePath($0) }
        if (settings.certificate == nil) != (settings.key == nil) {
            let missing = settings.certificate == nil ? "certificate" : "key"
            throw ConfigurationError(
                file: file, line: table.line(of: settings.certificate == nil ? "key" : "certificate"),
                reason: "[web] \(missing) is missing: HTTPS needs both certificate and key (PEM files)")
        }
        settings.sessionMinutes = try r.integer("session_minutes", in: 1...43_200) ?? 720
        settings.liveFPS = try r.integer("live_fps", in: 1...15) ?? 5
        settings.liveSize = try r.integer("live_size", in: 160...1920) ?? 640
        settings.stallTimeoutSeconds = try r.integer("stall_timeout_s", in: 1...600) ?? 10
        try r.rejectUnknown()
        return settings
    }

    /// Whether the web server should run.
    public var enabled: Bool { listen != nil }
}
