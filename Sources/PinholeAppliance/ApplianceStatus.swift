// A snapshot of the appliance's state, as `status --json` reports it.
import PinholeField

/// The appliance's state.
public struct ApplianceStatus: Codable, Sendable {
    /// A camera's summary.
    public struct Camera: Codable, Sendable {
        /// Camera id.
        public var id: String
        /// Model.
        public var model: String
        /// back / front / external.
        public var position: String
        /// Whether it has a torch.
        public var torch: Bool
        /// Still size "WxH".
        public var stillSize: String
    }

    /// The last capture's summary.
    public struct LastCapture: Codable, Sendable {
        /// Photo id.
        public var id: String
        /// File path.
        public var file: String
        /// Frame selection.
        public var selection: String
        /// Milliseconds from press to frame selection.
        public var pressToSelectedMs: Double
        /// Milliseconds from press to saved.
        public var pressToSavedMs: Double
    }

    /// Board name.
    public var board: String
    /// The running camera.
    public var camera: Camera?
    /// Number of cameras found.
    public var cameras: Int
    /// Torch on.
    public var torch: Bool
    /// Flash mode.
    public var flash: String
    /// Exposure of the last frame, microseconds.
    public var exposureTimeUs: Int?
    /// Total gain of the last frame.
    public var gain: Double?
    /// Lens position of the last frame, dioptres.
    public var lensPosition: Double?
    /// AF mode.
    public var afMode: String
    /// AF state.
    public var afState: String
    /// Scene lux of the last frame.
    public var lux: Double?
    /// Photos stored.
    public var photos: Int?
    /// Bytes free on the library's storage.
    public var storageFreeBytes: Int64?
    /// The last capture.
    public var lastCapture: LastCapture?
    /// Captures waiting or in progress.
    public var busy: Bool
    /// Frames received from the running camera.
    public var frames: Int
    /// Problems seen (most recent last).
    public var problems: [String]
    /// Exposure: "auto" or "manual".
    public var exposure: String? = nil
    /// EV compensation in stops.
    public var ev: Double? = nil
    /// Metering mode.
    public var metering: String? = nil
    /// White-balance mode.
    public var awb: String? = nil
    /// AE and AWB held (half-press).
    public var exposureLocked: Bool? = nil
    /// The AF point, normalized [x, y].
    public var afPoint: [Double]? = nil
    /// The AE point in the upright picture [x, y]; nil: the metering mode decides.
    public var aePoint: [Double]? = nil
    /// The digital zoom in force (1: none).
    public var zoom: Double? = nil
    /// Whether AWB is held.
    public var awbLocked: Bool? = nil
    /// The camera restarts the watchdog has made.
    public var cameraRestarts: Int? = nil
    /// How the stream configuration was validated: "valid", or "adjusted: what changed".
    public var configuration: String? = nil
    /// The recording under way (nil: idle).
    public var recording: RecordingSummary? = nil
    /// The mode switch's position, "photo" or "video" (nil: the board has no mode switch).
    public var mode: String? = nil
    /// The timelapse, when one runs or ran.
    public var timelapse: TimelapseStatus? = nil
    /// Whether the camera is in standby (not streaming).
    public var standby: Bool? = nil
    /// Seconds without use before standby (nil: never).
    public var standbyAfterSeconds: Int? = nil
    /// Milliseconds from the last wake to its first usable frame.
    public var lastWakeMs: Double? = nil
    /// Whether free storage is under `[library] low_storage_mb`.
    public var storageLow: Bool? = nil
    /// GPS: "off", the fix, or why there is none.
    public var gps: String? = nil
    /// The fix photos get now (nil: none).
    public var gpsFix: GPSFixStatus? = nil
    /// The gpsd address in use, "HOST:PORT" (nil: GPS off).
    public var gpsd: String? = nil
    /// The gpsd client's state: off, connecting, no receiver, no fix, fix, lost, disconnected.
    public var gpsState: String? = nil
    /// Satellites used in the fix by the last satellites report (also without a fix).
    public var gpsSatellites: Int? = nil
    /// Clock trust for photos taken now: synchronized, gps, unsynchronized, unknown.
    public var clockTrust: String? = nil
    /// Clock trust explained.
    public var clock: String? = nil
    /// `[library] when_full`: stop or recycle.
    public var whenFull: String? = nil
    /// Photos recycled to make room since start.
    public var recycled: Int? = nil
    /// When the appliance started, ISO 8601 local time (a restart after a power cut shows here).
    public var startedAt: String? = nil
    /// Seconds since it started.
    public var uptimeSeconds: Int? = nil
    /// The board's trigger lines and their counts (nil: the board has none).
    public var triggers: [TriggerStatus]? = nil
    /// Why no camera runs though one is expected: it missed its open deadline or failed to
    /// open (it is tried again). nil: it runs, or is opening within its deadline.
    public var cameraMissing: String? = nil
}

/// The GPS fix in `status --json`.
public struct GPSFixStatus: Codable, Sendable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Metres above sea level (3D fix).
    public var altitude: Double?
    /// 2 or 3.
    public var mode: Int?
    /// Satellites used.
    public var satellites: Int?
    /// Dilution of precision.
    public var dop: Double?
    /// The fix's UTC time, ISO 8601.
    public var time: String?
    /// Speed over ground, m/s.
    public var speed: Double? = nil
    /// Course over ground, degrees from true north.
    public var track: Double? = nil
}
