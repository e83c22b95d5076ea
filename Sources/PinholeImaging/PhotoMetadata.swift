// Everything Pinhole records about a photo, written to EXIF and indexed by the library.

import PinholeCore

/// Flash state of a capture.
public enum FlashMode: String, Sendable, Codable, CaseIterable {
    /// Never fire.
    case off
    /// Always fire.
    case on
    /// Fire when the scene is dark.
    case auto
}

/// A GPS fix.
public struct GPSFix: Sendable, Hashable, Codable {
    /// Degrees north (negative south).
    public var latitude: Double
    /// Degrees east (negative west).
    public var longitude: Double
    /// Metres above sea level, if known.
    public var altitude: Double?
    /// The fix's UTC time from the satellites (GPSTimeStamp, GPSDateStamp).
    public var time: WallTime? = nil
    /// Satellites used (GPSSatellites).
    public var satellites: Int? = nil
    /// Dilution of precision: HDOP for a 2D fix, PDOP for a 3D fix (GPSDOP).
    public var dop: Double? = nil
    /// 2 for a 2D fix, 3 for a 3D fix (GPSMeasureMode).
    public var measureMode: Int? = nil
    /// Speed over ground in metres a second (GPSSpeed, written in km/h).
    public var speed: Double? = nil
    /// Course over ground, degrees from true north (GPSTrack).
    public var track: Double? = nil

    /// Creates a fix.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}

/// The metadata of one photo: what is written into its EXIF and read back from any JPEG.
///
/// Optional fields are absent from the EXIF when nil.
public struct PhotoMetadata: Sendable, Hashable, Codable {
    /// Camera maker (IFD0 Make).
    public var make: String?
    /// Camera model (IFD0 Model).
    public var model: String?
    /// Software (IFD0 Software).
    public var software: String?
    /// Orientation (IFD0 Orientation).
    public var orientation: Orientation
    /// When the exposure happened, with its UTC offset (DateTimeOriginal, SubSecTimeOriginal,
    /// OffsetTimeOriginal).
    public var captureTime: WallTime?
    /// Stored pixel width (PixelXDimension).
    public var pixelWidth: Int
    /// Stored pixel height (PixelYDimension).
    public var pixelHeight: Int
    /// Exposure time in seconds (ExposureTime).
    public var exposureTime: Double?
    /// Total gain; ISO is 100 × gain (PhotographicSensitivity).
    public var iso: Int?
    /// Aperture (FNumber), from the board profile.
    public var fNumber: Double?
    /// Focal length in millimetres (FocalLength), from the board profile.
    public var focalLength: Double?
    /// EV compensation in stops (ExposureBiasValue).
    public var exposureBias: Double?
    /// True when exposure was set manually (ExposureMode).
    public var manualExposure: Bool?
    /// Metering mode name: "centre", "spot", "matrix" (MeteringMode).
    public var metering: String?
    /// Whether the flash fired (Flash); nil when the camera has no flash.
    public var flashFired: Bool?
    /// The flash mode in force (Flash mode bits).
    public var flashMode: FlashMode?
    /// True when white balance was set manually (WhiteBalance).
    public var manualWhiteBalance: Bool?
    /// Lens position in dioptres; SubjectDistance is 1 / dioptres metres.
    public var lensPosition: Double?
    /// Lens model (LensModel).
    public var lensModel: String?
    /// Body serial number (BodySerialNumber).
    public var serialNumber: String?
    /// GPS fix (GPS IFD).
    public var gps: GPSFix?
    /// Whether the clock could be trusted when the photo was taken (UserComment, see
    /// `PinholeComment`: "Pinhole clock: …"); nil: not recorded.
    public var clockTrust: ClockTrust? = nil
    /// From the shutter press to the start of the photo's exposure, in one time base
    /// (negative: the exposure was under way at the press); UserComment "press-to-exposure".
    public var pressToExposure: Duration? = nil
    /// For a press that woke the camera from standby: the time to its first usable frame;
    /// UserComment "wake".
    public var wakeCost: Duration? = nil
    /// Whether the local time zone is known; when false the UTC offset is not written
    /// (no OffsetTime*), since it would claim a zone nobody set.
    public var timeZoneKnown = true
    /// The digital zoom in force (DigitalZoomRatio); nil or 1: none.
    public var digitalZoom: Double? = nil
    /// The camera's identifier on this appliance (not written to EXIF; indexed).
    public var cameraID: String?
    /// A maker note to write as is (Exif MakerNote): a Live Photo's Apple still carries its
    /// pair's content identifier in one. Not read back.
    public var makerNote: [UInt8]? = nil

    /// Creates metadata for a photo of the given stored size.
    public init(pixelWidth: Int, pixelHeight: Int, orientation: Orientation = .up) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
    }
}
