// The `[gps]` table of the configuration file: gpsd's address and whether GPS may set the clock.

import PinholeCore

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

    /// Reads the `[gps]` table.
    static func parse(_ table: TOMLTable, file: String) throws -> GPSSettings {
        var settings = GPSSettings()
        var r = TableReader(table: table, file: file, context: "[gps]")
        if let address = try r.string("gpsd") {
            guard let (host, port) = GPSTracker.address(address) else {
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
