// The container seam: encoded packets in, a fragmented MP4 out through a sink made durable per fragment.

/// What the movie says about itself: written as MP4 metadata (mvhd creation time, mdta keys,
/// the ISO 6709 location, the display matrix).
public struct ClipMetadata: Sendable, Hashable, Codable {
    /// When recording started; nil when the clock is not known at all.
    public var creationTime: WallTime?
    /// Latitude in degrees (north positive), when a GPS fix is known.
    public var latitude: Double?
    /// Longitude in degrees (east positive).
    public var longitude: Double?
    /// Altitude in metres above sea level, when known.
    public var altitude: Double?
    /// Clockwise rotation in degrees (0, 90, 180, 270) a player applies to show the clip upright.
    public var rotationDegrees: Int
    /// The camera's maker.
    public var make: String?
    /// The camera's model.
    public var model: String?
    /// How far `creationTime` can be trusted.
    public var clockTrust: ClockTrust

    /// Creates metadata.
    public init(
        creationTime: WallTime?, latitude: Double? = nil, longitude: Double? = nil,
        altitude: Double? = nil, rotationDegrees: Int = 0, make: String? = nil, model: String? = nil,
        clockTrust: ClockTrust = .unknown
    ) {
        self.creationTime = creationTime
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.rotationDegrees = rotationDegrees
        self.make = make
        self.model = model
        self.clockTrust = clockTrust
    }

    /// The mdta key of the clock-trust marker.
    public static let clockTrustKey = "org.pinhole.clock-trust"

    /// The position as ISO 6709 (`+48.8577+002.2950+035.000/`), nil without a position.
    public var iso6709: String? {
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite,
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        var text = Self.signed(latitude, integerDigits: 2) + Self.signed(longitude, integerDigits: 3)
        if let altitude, altitude.isFinite { text += Self.signed(altitude, integerDigits: 3, fraction: 3) }
        return text + "/"
    }

    /// A signed decimal with at least `integerDigits` before the point and `fraction` after it.
    private static func signed(_ value: Double, integerDigits: Int, fraction: Int = 4) -> String {
        var scale = 1.0
        for _ in 0..<fraction { scale *= 10 }
        let units = Int64((abs(value) * scale).rounded())
        let whole = String(units / Int64(scale))
        var part = String(units % Int64(scale))
        part = String(repeating: "0", count: fraction - part.count) + part
        let padded = String(repeating: "0", count: max(0, integerDigits - whole.count)) + whole
        return (value < 0 ? "-" : "+") + padded + "." + part
    }

    /// The movie's metadata keys and values, in the order written.
    public var entries: [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = []
        if let creationTime { entries.append(("creation_time", Self.isoUTC(creationTime))) }
        if let location = iso6709 {
            // `location` becomes the udta location box; the Apple key is what Photos apps read.
            entries.append(("location", location))
            entries.append(("com.apple.quicktime.location.ISO6709", location))
        }
        if let make { entries.append(("com.apple.quicktime.make", make)) }
        if let model { entries.append(("com.apple.quicktime.model", model)) }
        entries.append((Self.clockTrustKey, clockTrust.rawValue))
        return entries
    }

    /// `2026-11-26T13:00:00.000000Z`, as libavformat parses creation_time.
    public static func isoUTC(_ time: WallTime) -> String {
        let civil = CivilDateTime(epochSeconds: time.secondsSince1970)
        let micros = String(max(0, Int(time.nanoseconds) / 1000))
        let year = String(civil.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-"
            + twoDigits(civil.month) + "-" + twoDigits(civil.day) + "T" + twoDigits(civil.hour) + ":"
            + twoDigits(civil.minute) + ":" + twoDigits(civil.second) + "."
            + String(repeating: "0", count: 6 - micros.count) + micros + "Z"
    }
}

/// Where a clip's container bytes go: a file that grows fragment by fragment.
public protocol ClipSink: AnyObject {
    /// Appends `bytes`; throws `VideoError.storage` when they cannot be kept.
    func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError)
    /// Every byte written so far forms complete fragments: make them durable (fsync).
    func fragmentCompleted() throws(VideoError)
}

/// Writes encoded packets into a fragmented MP4 (a fragment per keyframe). Used from one thread.
public protocol ClipWriter: AnyObject {
    /// Appends a packet. At a keyframe the previous fragment is complete and made durable
    /// before this returns.
    func write(_ packet: EncodedPacket) throws(VideoError)
    /// Writes the last fragment and the trailer and makes the file durable.
    func finish() throws(VideoError)
    /// Stops without a trailer (the complete fragments stay playable).
    func abort()
}

/// The video backend: opens encoders and writers.
public protocol VideoBackend: Sendable {
    /// Which encoders can be opened here.
    func available(_ encoder: VideoEncoderKind) -> Bool
    /// Opens an encoder.
    func makeEncoder(_ settings: ClipEncoderSettings) throws(VideoError) -> any ClipEncoder
    /// Starts a clip: the container header goes to `sink` at once.
    func makeWriter(
        settings: ClipEncoderSettings, codecHeader: [UInt8], metadata: ClipMetadata, sink: any ClipSink
    ) throws(VideoError) -> any ClipWriter
}
