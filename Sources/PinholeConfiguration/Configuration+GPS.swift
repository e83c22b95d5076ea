// The `[gps]` table of the configuration file: gpsd's address and whether GPS may set the clock.

import PinholeCore
import SystemPackage

/// `[gps]` settings; GPS is off unless `gpsd` is set.
public struct GPSSettings: Sendable, Hashable {
    /// `gpsd = "HOST:PORT"` (port 2947 when omitted); nil: GPS off.
    public var gpsd: String?
    /// gpsd's host, parsed from `gpsd`.
    public var host: String?
    /// gpsd's port, parsed from `gpsd`.
    public var port = 2947
    /// `set_clock = true`: a GPS time fix sets the clock when the kernel says it is
    /// unsynchronized (the service needs CAP_SYS_TIME; see board/README.md).
    public var setClock = false

    /// Defaults: off.
    public init() {}

    /// Parses "HOST:PORT" (port 2947 when omitted; "[::1]:2947" for IPv6).
    public static func address(_ text: String) -> (host: String, port: Int)? {
        var host = Substring(text)
        var port = 2947
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let value = Int(rest.dropFirst()) else { return nil }
                port = value
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let value = Int(host[host.index(after: colon)...]) else { return nil }
            port = value
            host = host[..<colon]
        }
        guard !host.isEmpty, (1...65_535).contains(port), !host.contains(where: { $0.isWhitespace }) else {
            return nil
        }
        return (String(host), port)
    }

    /// Reads the `[gps]` table.
    static func parse(_ table: TOMLTable, file: FilePath) throws -> GPSSettings {
        var settings = GPSSettings()
        var r = TableReader(table: table, file: file, context: "[gps]")
        if let address = try r.string("gpsd") {
            guard let (host, port) = Self.address(address) else {
                throw ConfigurationError(
                    file: file, line: table.line(of: "gpsd"),
                    reason: "[gps] gpsd is '\(address)': use \"HOST:PORT\", e.g. \"localhost:2947\"")
            }
            settings.gpsd = address
            settings.host = host
            settings.port = port
        }
        settings.setClock = try r.bool("set_clock") ?? false
        try r.rejectUnknown()
        return settings
    }
}
