// Cameras as the behaviour sees them: discovery, configuration, frames and controls.

/// Where a camera faces (libcamera's Location property).
public enum CameraPosition: String, Sendable, Codable {
    /// Facing away from the user.
    case back
    /// Facing the user.
    case front
    /// Plugged in (USB) or unknown.
    case external
}

/// A control's value.
public enum ControlValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A boolean control (AeEnable, AwbEnable).
    case bool(Bool)
    /// An integer or enumerated control (AfMode, AeMeteringMode).
    case int(Int)
    /// A floating-point control (LensPosition, AnalogueGain, ExposureValue).
    case double(Double)
    /// A rectangle list (AfWindows), normalized to the sensor crop by the caller.
    case rectangles([NormalizedRect])

    /// A readable form, for messages and logs.
    public var description: String {
        switch self {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .rectangles(let rects): return rects.map(\.description).joined(separator: ",")
        }
    }
}

/// A rectangle in normalized 0…1 coordinates.
public struct NormalizedRect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A readable form, for messages and logs.
    public var description: String { "(\(x),\(y) \(width)x\(height))" }

    /// Whether a normalized point lies inside.
    public func contains(_ px: Double, _ py: Double) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}

/// The range a camera reports for a control.
public struct ControlRange: Sendable, Hashable, Codable {
    /// Minimum value.
    public var min: Double
    /// Maximum value.
    public var max: Double
    /// Default value, where reported.
    public var defaultValue: Double?

    /// Creates a range.
    public init(min: Double, max: Double, defaultValue: Double? = nil) {
        self.min = min
        self.max = max
        self.defaultValue = defaultValue
    }
}

/// What a camera is and what it can do, read from the camera itself.
public struct CameraInfo: Sendable, Hashable, Codable {
    /// Stable identifier (libcamera's camera id).
    public var id: String
    /// Sensor / module model.
    public var model: String
    /// Where it faces.
    public var position: CameraPosition
    /// Full pixel array size.
    public var pixelArraySize: PixelSize
    /// Still sizes offered (largest first).
    public var stillSizes: [PixelSize]
    /// Viewfinder sizes offered.
    public var viewfinderSizes: [PixelSize]
    /// Pixel formats offered for stills.
    public var stillFormats: [PixelFormat]
    /// Controls by libcamera name, with their ranges.
    public var controls: [String: ControlRange]
    /// Video stream sizes offered (libcamera's VideoRecording role); empty: no video stream.
    public var videoSizes: [PixelSize]
    /// Video frame rates offered, frames per second.
    public var videoFrameRates: [Int]

    /// Creates a description.
    public init(
        id: String, model: String, position: CameraPosition, pixelArraySize: PixelSize,
        stillSizes: [PixelSize], viewfinderSizes: [PixelSize], stillFormats: [PixelFormat],
        controls: [String: ControlRange], videoSizes: [PixelSize] = [], videoFrameRates: [Int] = []
    ) {
        self.videoSizes = videoSizes
        self.videoFrameRates = videoFrameRates
        self.id = id
        self.model = model
        self.position = position
        self.pixelArraySize = pixelArraySize
        self.stillSizes = stillSizes
        self.viewfinderSizes = viewfinderSizes
        self.stillFormats = stillFormats
        self.controls = controls
    }

    /// The most frames a control takes to be in effect after `CameraDevice.setControls`
    /// (libcamera pipelines delay exposure and gain by a few frames; this leaves room for the
    /// deepest request queue).
    public static let controlDelayFrames = 8

    /// Whether the lens can be moved (LensPosition is reported).
    public var hasFocusControl: Bool { controls["LensPosition"] != nil }

    /// Whether the camera runs its own AF algorithm (AfMode is reported).
    public var hasAutofocusAlgorithm: Bool { controls["AfMode"] != nil }
}

/// Per-frame metadata, as the camera reports it.
public struct FrameMetadata: Sendable, Hashable {
    /// Frame sequence number.
    public var sequence: UInt64
    /// Start of exposure of the frame, on the loop's monotonic timeline.
    public var sensorTimestamp: Instant
    /// Exposure time actually used.
    public var exposureTime: Duration
    /// Analogue gain actually used.
    public var analogueGain: Double
    /// Digital gain actually used.
    public var digitalGain: Double
    /// Lens position in dioptres, when the lens is movable.
    public var lensPosition: Double?
    /// Scene illuminance estimate in lux, when reported.
    public var lux: Double?
    /// Sharpness figure of merit inside the AF window, when reported.
    public var focusFigureOfMerit: Double?
    /// Colour temperature estimate in kelvin, when reported.
    public var colourTemperature: Double?
    /// The camera's own AF algorithm state (libcamera AfState: 0 idle, 1 scanning, 2 focused,
    /// 3 failed), when the camera runs one.
    public var afState: Int?
    /// Wall-clock time of the start of exposure as the camera reports it (libcamera ≥ 0.5.2
    /// `FrameWallClock`); nil: derive it from `sensorTimestamp`.
    public var wallClock: WallTime?
    /// Controls the camera reports as in effect for this frame, by libcamera name (beyond the
    /// exposure, gain and lens fields above). Empty: the camera reports none, and a change is
    /// known to be in effect only by counting frames.
    public var controls: [String: ControlValue]

    /// Creates frame metadata.
    public init(
        sequence: UInt64, sensorTimestamp: Instant, exposureTime: Duration, analogueGain: Double,
        digitalGain: Double = 1, lensPosition: Double? = nil, lux: Double? = nil,
        focusFigureOfMerit: Double? = nil, colourTemperature: Double? = nil, afState: Int? = nil,
        wallClock: WallTime? = nil, controls: [String: ControlValue] = [:]
    ) {
        self.wallClock = wallClock
        self.controls = controls
        self.sequence = sequence
        self.sensorTimestamp = sensorTimestamp
        self.exposureTime = exposureTime
        self.analogueGain = analogueGain
        self.digitalGain = digitalGain
        self.lensPosition = lensPosition
        self.lux = lux
        self.focusFigureOfMerit = focusFigureOfMerit
        self.colourTemperature = colourTemperature
        self.afState = afState
    }

    /// Total gain (analogue × digital); ISO is 100 × this.
    public var totalGain: Double { analogueGain * digitalGain }

    /// Whether the exposure of this frame was under way at `instant`.
    public func wasExposing(at instant: Instant) -> Bool {
        instant >= sensorTimestamp && instant < sensorTimestamp + exposureTime
    }
}

/// A completed frame. Holds its buffers until released (then the camera reuses them).
///
/// `stillImage()` may be called from the loop's worker thread; `release()` on the loop.
public protocol CameraFrame: AnyObject, Sendable {
    /// The frame's metadata.
    var metadata: FrameMetadata { get }
    /// The full-resolution still image of this frame.
    func stillImage() throws -> RawImage
    /// A small viewfinder image of this frame, if the camera produces one.
    func viewfinderImage() throws -> RawImage?
    /// The video stream's image of this frame (planar YUV 4:2:0 at the configured video size),
    /// nil when no video stream is configured. May be called from the recording's thread.
    func videoImage() throws -> RawImage?
    /// Keeps the frame's buffers readable (for `videoImage()` on the recorder's lane) until the
    /// returned closure runs on the loop, even if `release()` comes first.
    func keep() -> () -> Void
    /// Gives the buffers back to the camera.
    func release()
}

extension CameraFrame {
    /// No video stream: backends that deliver one override this.
    public func videoImage() throws -> RawImage? { nil }

    /// The frame owns its pixels (nothing to give back early): nothing to keep.
    public func keep() -> () -> Void { {} }
}

/// Streams asked of a camera.
public struct StreamRequest: Sendable, Hashable {
    /// Still stream size.
    public var stillSize: PixelSize
    /// Still stream pixel format.
    public var stillFormat: PixelFormat
    /// Viewfinder stream size.
    public var viewfinderSize: PixelSize
    /// Video stream size and frame rate (libcamera's VideoRecording role); nil: no video stream.
    public var video: VideoStreamRequest?

    /// Creates a request.
    public init(
        stillSize: PixelSize, stillFormat: PixelFormat = .yuv420,
        viewfinderSize: PixelSize = PixelSize(width: 640, height: 480), video: VideoStreamRequest? = nil
    ) {
        self.video = video
        self.stillSize = stillSize
        self.stillFormat = stillFormat
        self.viewfinderSize = viewfinderSize
    }
}

/// A video stream: size and frame rate.
public struct VideoStreamRequest: Sendable, Hashable {
    /// Frame size.
    public var size: PixelSize
    /// Frames per second.
    public var fps: Int

    /// Creates a request.
    public init(size: PixelSize, fps: Int) {
        self.size = size
        self.fps = fps
    }
}

/// The outcome of validating a stream request (libcamera's valid / adjusted / invalid).
public enum ConfigurationOutcome: Sendable, Hashable {
    /// Used as asked.
    case valid(StreamRequest)
    /// Used with changes; `notes` say what changed.
    case adjusted(StreamRequest, notes: [String])
}

/// An open camera.
public protocol CameraDevice: AnyObject {
    /// What the camera is.
    var info: CameraInfo { get }
    /// Validates and applies a stream configuration (camera stopped).
    func configure(_ request: StreamRequest) throws -> ConfigurationOutcome
    /// Starts streaming; frames arrive on the event loop.
    func start(onFrame: @escaping (any CameraFrame) -> Void) throws
    /// Stops streaming and returns every buffer.
    func stop()
    /// Sets controls by libcamera name. A control the camera does not report
    /// (`CameraError.unsupportedControl`) or a value outside its reported range
    /// (`.outOfRange`) is an error, and then nothing is changed. Set while streaming, a
    /// control is in effect no later than the `CameraInfo.controlDelayFrames`-th frame
    /// delivered after the call (the frame's metadata says what it was exposed with); set
    /// while stopped, from the first frame.
    func setControls(_ controls: [String: ControlValue]) throws
    /// Closes the camera.
    func close()
    /// Configures, sets `controls` and starts streaming without blocking the loop (the
    /// camera's session thread does the work where the backend can block): `completion` runs
    /// on the loop with the configuration used, or the error, at once or later, or never
    /// while the camera hangs. Commands given meanwhile wait for it. The default calls
    /// `configure`, `setControls` and `start` at once.
    func start(
        _ request: StreamRequest, controls: [String: ControlValue],
        onFrame: @escaping (any CameraFrame) -> Void,
        then completion: @escaping (Result<ConfigurationOutcome, any Error>) -> Void)
    /// Stops streaming without blocking the loop: no frame is delivered after the call;
    /// `completion` runs on the loop once the camera has stopped (at once or later, or never
    /// while it hangs). The default calls `stop()` at once.
    func stop(then completion: @escaping () -> Void)
    /// Closes the camera without blocking the loop; `completion` runs on the loop once the
    /// camera may be opened again. The default calls `close()` at once.
    func close(then completion: @escaping () -> Void)
}

/// A source of cameras: libcamera on hardware, the simulator elsewhere.
public protocol CameraProvider: AnyObject {
    /// The cameras present now.
    func cameras() throws -> [CameraInfo]
    /// Opens a camera by id.
    func open(id: String) throws -> any CameraDevice
    /// `cameras()` without blocking the loop where the backend can block (libcamera starting
    /// its camera manager): `completion` runs on the loop, at once or later, or never while
    /// the backend hangs. The default calls `cameras()` at once.
    func cameras(then completion: @escaping (Result<[CameraInfo], any Error>) -> Void)
    /// `open(id:)` without blocking the loop where the backend can block (a sensor that does
    /// not answer): `completion` runs on the loop, at once or later, or never while the
    /// backend hangs. The default calls `open(id:)` at once.
    func open(id: String, then completion: @escaping (Result<any CameraDevice, any Error>) -> Void)
}

extension CameraProvider {
    /// Calls `cameras()` and completes at once.
    public func cameras(then completion: @escaping (Result<[CameraInfo], any Error>) -> Void) {
        completion(Result { try cameras() })
    }

    /// Calls `open(id:)` and completes at once.
    public func open(id: String, then completion: @escaping (Result<any CameraDevice, any Error>) -> Void) {
        completion(Result { try open(id: id) })
    }
}

/// Errors from cameras, each saying what to do.
public enum CameraError: Error, CustomStringConvertible, Equatable {
    /// No camera at all.
    case noCamera(detail: String)
    /// No camera with that id.
    case unknownCamera(String, available: [String])
    /// The camera does not report this control.
    case unsupportedControl(String, camera: String)
    /// The value is outside what the camera reports.
    case outOfRange(control: String, value: Double, range: ControlRange)
    /// The configuration cannot be used.
    case invalidConfiguration(String)
    /// The camera failed.
    case failed(String)

    /// A readable form, for messages and logs.
    public var description: String {
        switch self {
        case .noCamera(let detail):
            return
                "no camera found (\(detail)): check the ribbon cable, the camera overlay in config.txt, and `cam -l`"
        case .unknownCamera(let id, let available):
            return "no camera '\(id)': available are \(available.joined(separator: ", "))"
        case .unsupportedControl(let control, let camera):
            return "camera '\(camera)' does not support \(control)"
        case .outOfRange(let control, let value, let range):
            return "\(control) \(value) is outside the camera's range \(range.min)…\(range.max)"
        case .invalidConfiguration(let why):
            return "invalid camera configuration: \(why)"
        case .failed(let why):
            return "camera failure: \(why)"
        }
    }
}
