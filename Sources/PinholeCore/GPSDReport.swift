// gpsd's JSON protocol: one report a line (VERSION, DEVICES, WATCH, TPV, SKY, ERROR), read defensively.

/// A position and time report (gpsd class TPV). Fields gpsd did not send are nil.
public struct GPSDPosition: Sendable, Hashable {
    /// NMEA mode: 0 unknown, 1 no fix, 2 2D fix, 3 3D fix.
    public var mode: Int
    /// The fix's UTC time.
    public var time: WallTime?
    /// Degrees north.
    public var latitude: Double?
    /// Degrees east.
    public var longitude: Double?
    /// Metres above mean sea level (`altMSL`, else the older `alt`).
    public var altitude: Double?
    /// Speed over ground, metres a second.
    public var speed: Double?
    /// Course over ground, degrees from true north.
    public var track: Double?
    /// Estimated horizontal error, metres (`eph`).
    public var horizontalError: Double?

    /// Creates a report.
    public init(mode: Int) { self.mode = mode }

    /// Whether this is a 2D or 3D fix with a position on Earth.
    public var hasFix: Bool {
        guard mode >= 2, let latitude, let longitude else { return false }
        return abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

/// Satellites and dilution of precision (gpsd class SKY).
public struct GPSDSky: Sendable, Hashable {
    /// Satellites used in the fix (from `uSat`, else counted from `satellites`).
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Position (3D) dilution of precision.
    public var pdop: Double?

    /// Creates a report.
    public init(satellitesUsed: Int? = nil, hdop: Double? = nil, pdop: Double? = nil) {
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.pdop = pdop
    }
}

/// One line from gpsd.
public enum GPSDReport: Sendable, Hashable {
    /// The greeting: gpsd's release.
    case version(release: String)
    /// The devices gpsd has (an empty list: no receiver attached).
    case devices(count: Int)
    /// gpsd acknowledged a WATCH.
    case watch(enabled: Bool)
    /// Position and time.
    case position(GPSDPosition)
    /// Satellites.
    case sky(GPSDSky)
    /// gpsd reported an error.
    case error(message: String)
    /// A class Pinhole does not use (DEVICE, PPS, TOFF, GST, ATT, …).
    case other(className: String)

    /// Longest line accepted; gpsd's own reports are far shorter.
    public static let maxLineBytes = 16_384

    /// The command that asks gpsd for JSON reports.
    public static let watchCommand = "?WATCH={\"enable\":true,\"json\":true}\n"

    /// Why a line is not a usable report.
    public struct Malformed: Error, Hashable, CustomStringConvertible {
        /// What was wrong.
        public var reason: String
        /// The reason, for logs.
        public var description: String { "gpsd sent a line Pinhole cannot read: \(reason)" }
    }

    /// Parses one line (without its newline). Out-of-range fields are dropped, not trusted.
    public static func parse(_ line: some Collection<UInt8>) throws(Malformed) -> GPSDReport {
        guard line.count <= maxLineBytes else { throw Malformed(reason: "a line of \(line.count) bytes") }
        let value: JSONValue
        do { value = try JSONValue.parse(line) } catch { throw Malformed(reason: error.description) }
        guard case .object = value else { throw Malformed(reason: "not a JSON object") }
        guard let className = value["class"]?.string else { throw Malformed(reason: "no \"class\" member") }
        switch className {
        case "VERSION":
            return .version(release: value["release"]?.string ?? "?")
        case "DEVICES":
            return .devices(count: value["devices"]?.array?.count ?? 0)
        case "WATCH":
            return .watch(enabled: value["enable"]?.bool ?? false)
        case "TPV":
            return .position(position(value))
        case "SKY":
            return .sky(sky(value))
        case "ERROR":
            return .error(message: String((value["message"]?.string ?? "unknown").prefix(200)))
        default:
            return .other(className: String(className.prefix(32)))
        }
    }

    private static func position(_ value: JSONValue) -> GPSDPosition {
        let mode = value["mode"]?.int.flatMap { (0...3).contains($0) ? $0 : nil } ?? 0
        var report = GPSDPosition(mode: mode)
        report.time = value["time"]?.string.flatMap(parseTime)
        report.latitude = value["lat"]?.double.flatMap { abs($0) <= 90 ? $0 : nil }
        report.longitude = value["lon"]?.double.flatMap { abs($0) <= 180 ? $0 : nil }
        report.altitude = (value["altMSL"]?.double ?? value["alt"]?.double).flatMap {
            abs($0) < 100_000 ? $0 : nil
        }
        report.speed = value["speed"]?.double.flatMap { $0 >= 0 && $0 < 100_000 ? $0 : nil }
        report.track = value["track"]?.double.flatMap { $0 >= 0 && $0 < 360 ? $0 : nil }
        report.horizontalError = value["eph"]?.double.flatMap { $0 >= 0 ? $0 : nil }
        return report
    }

    private static func sky(_ value: JSONValue) -> GPSDSky {
        var sky = GPSDSky()
        if let used = value["uSat"]?.int, used >= 0, used < 1000 {
            sky.satellitesUsed = used
        } else if let satellites = value["satellites"]?.array, !satellites.isEmpty {
            sky.satellitesUsed = satellites.filter { $0["used"]?.bool == true }.count
        }
        sky.hdop = value["hdop"]?.double.flatMap { $0 > 0 && $0 < 100 ? $0 : nil }
        sky.pdop = value["pdop"]?.double.flatMap { $0 > 0 && $0 < 100 ? $0 : nil }
        return sky
    }

    /// Parses gpsd's ISO 8601 UTC time, "2026-11-23T10:15:30.000Z" (fraction optional).
    public static func parseTime(_ text: String) -> WallTime? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        let separators: [(Int, UInt8)] = [
            (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
            (16, UInt8(ascii: ":")),
        ]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1 }),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var nanoseconds = 0
        if bytes[19] == UInt8(ascii: ".") {
            let digits = 20..<(bytes.count - 1)
            guard !digits.isEmpty, digits.count <= 9, let fraction = number(digits) else { return nil }
            nanoseconds =
                fraction
                * [
                    1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
                    1_000_000_000,
                ][9 - digits.count]
        } else if bytes.count != 20 {
            return nil
        }
        let seconds =
            CivilDateTime.epochDays(year: year, month: month, day: day) * 86_400
            + Int64(
                hour * 3600 + minute * 60
                    + min(second, 59))
        return WallTime(secondsSince1970: seconds, nanoseconds: Int32(nanoseconds))
    }
}
