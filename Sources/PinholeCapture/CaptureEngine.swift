// Runs the current camera, keeps a ring of recent frames, and turns presses into saved photos.

import PinholeBoard
import PinholeCore
import PinholeImaging

/// Errors of the capture path.
public enum CaptureError: Error, CustomStringConvertible {
    /// No camera is running.
    case noCamera
    /// The camera sent no frame in time.
    case noFrame(camera: String, waited: Duration)
    /// The running camera has no flash (torch LED).
    case noFlash(camera: String)
    /// Encoding or storing failed.
    case failed(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .noCamera: return "no camera is running: check `camera list` and the camera cable"
        case .noFrame(let camera, let waited):
            return "camera \(camera) sent no frame in \(Int(waited.milliseconds)) ms: the photo was not taken"
        case .noFlash(let camera):
            return "camera \(camera) has no flash (no torch LED lights its scene): use `flash off`"
        case .failed(let why): return why
        }
    }
}

/// The camera side of the appliance: discovery, switching, frame ring, focus, exposure,
/// flash, the watchdog, and captures with zero shutter lag.
///
/// Which frame serves which press is decided by a `CaptureMachine` value; the engine feeds it
/// events and performs the actions it returns (encoding and storing off the loop).
public final class CaptureEngine {
    let loop: EventLoop
    let provider: any CameraProvider
    let board: BoardProfile
    let encoder: any StillEncoder
    let store: any PhotoStore
    let software: String

    /// Cameras found at start.
    public internal(set) var cameras: [CameraInfo] = []
    /// The running camera.
    public internal(set) var current: CameraInfo?
    var device: (any CameraDevice)?
    /// The configuration in use, after validation.
    public internal(set) var configuration: ConfigurationOutcome?
    /// Ring, waiting presses, flash capture and work in flight.
    var machine = CaptureMachine(ringSize: 2)
    /// What each waiting or in-flight request needs when it ends.
    var requests: [CaptureTicket: CaptureRequestState] = [:]
    var nextTicket: UInt64 = 0
    /// Bursts whose shots are still being taken, encoded or stored.
    var bursts: [CaptureTicket: BurstProgress] = [:]
    /// During a burst, at most this many shots are encoded at once (each holds a
    /// full-resolution copy and its JPEG); frames arriving meanwhile are skipped and reported.
    /// `[capture] frames_in_flight`; at least 1.
    public var maxFramesInFlight: Int {
        get { machine.maxInFlight }
        set { machine.maxInFlight = max(1, newValue) }
    }
    /// During a burst, at most this many encoded shots wait for their file's sync and the
    /// index (no frame held); at least 0.
    public var maxShotsWaitingToStore: Int {
        get { machine.maxWaiting }
        set { machine.maxWaiting = max(0, newValue) }
    }
    /// Full-resolution frames kept for zero shutter lag.
    public var ringSize: Int { machine.ringSize }
    /// Metadata of the most recent frame.
    public internal(set) var lastFrame: FrameMetadata?
    /// Frames received from the current camera.
    public internal(set) var framesReceived = 0
    /// How long a capture waits for a frame before failing, at the least: the watchdog's
    /// shortest timeout and time for a restart and the restarted camera's first frame, so that
    /// a press during a stall is served by the restarted camera. A slower camera's captures
    /// wait longer (`frameWait`).
    public var frameTimeout: Duration = .seconds(4)
    /// How long after its last shot a burst waits for storage before it answers with the
    /// shots still pending (which are still saved, and announced, when storage answers).
    public var burstStoreDeadline: Duration = .seconds(10)
    /// Frames after which a changed control the camera does not report in its metadata is
    /// taken as in effect (libcamera's Raspberry Pi pipeline applies exposure two frames late).
    public var controlDelayFrames = 3
    /// The owner: flash output, body tilt, extra metadata, events.
    public weak var delegate: (any CaptureEngineDelegate)?
    /// Focus for the running camera.
    public let focus: FocusController
    /// Exposure and white balance asked for.
    public internal(set) var exposure = ExposureSettings() {
        didSet { exposureLog = Array((exposureLog + [(loop.now, exposure)]).suffix(8)) }
    }
    /// Recent settings with the time each was asked for, so that a photo's EXIF describes the
    /// settings in force when its frame was exposed (a ZSL frame may predate a change).
    var exposureLog: [(since: Instant, settings: ExposureSettings)] = []
    /// Whether AE is held (half-press, `ae lock`).
    public internal(set) var exposureLocked = false
    /// Whether AWB is held (half-press, `awb lock`).
    public internal(set) var awbLocked = false
    /// When the flash fires.
    public internal(set) var flash = FlashPolicy()
    /// Settings per camera id (still size, manual lens, flash), as saved.
    var perCamera: [String: SavedSettings.PerCamera] = [:]
    /// The album new photos go into (nil: none).
    public internal(set) var currentAlbum: String?
    /// The watchdog that restarts a camera that stops sending frames.
    public private(set) var watchdog: CameraWatchdog!
    /// Standby: asleep or streaming, and the last wake's cost.
    var standby = EngineStandby()
    /// The camera's commands, one at a time, each with a deadline (`CameraSession`).
    let session: CameraSession
    /// How long a camera command (open, start, stop, close) may take before the camera is
    /// reported as not answering; the session keeps waiting for it.
    public var cameraCommandDeadline: Duration {
        get { session.deadline }
        set { session.deadline = newValue }
    }
    /// Whether `beginStart` is discovering or opening a camera now.
    public internal(set) var isOpening = false
    /// Counts `beginStart` calls and stops: a completion of an older attempt is stale.
    var startAttempt = 0
    /// The video stream asked of each camera that offers one (set when recording is set up).
    public var videoStream: VideoStreamRequest?
    /// Every frame, before the capture machine sees it (the recorder's feed).
    public var onVideoFrame: ((any CameraFrame) -> Void)?
    /// Called before the running camera's stream stops for a switch (the recorder closes its
    /// clip first, so that it is kept).
    public var onStreamStopping: ((String) -> Void)?
    /// Whether something needs the stream to keep running (a recording): standby waits then.
    public var keepsStreaming: (() -> Bool)?

    /// Creates an engine.
    public init(
        loop: EventLoop, provider: any CameraProvider, board: BoardProfile, encoder: any StillEncoder,
        store: any PhotoStore, software: String
    ) {
        self.loop = loop
        self.provider = provider
        self.board = board
        self.encoder = encoder
        self.store = store
        self.software = software
        self.focus = FocusController(loop: loop)
        self.session = CameraSession(loop: loop)
        self.watchdog = CameraWatchdog(loop: loop) { [weak self] silence in self?.cameraStalled(silence) }
        focus.onEvent = { [weak self] mode, reason in self?.report(.focusChanged(mode: mode, reason: reason))
        }
        focus.onSettingsChange = { [weak self] in self?.settingsChanged() }
        session.onNotice = { [weak self] notice in self?.report(.camera(notice)) }
        focus.onUserChange = { [weak self] controls in
            guard let self else { return }
            self.machine.controlsChanged(
                ControlRequirement(
                    changedAt: self.loop.now, expected: controls, delayFrames: self.controlDelayFrames))
        }
    }

    func report(_ event: CaptureEngineEvent) {
        delegate?.captureEngine(self, report: event)
    }

    /// Whether captures are waiting for a frame or being encoded and stored, or a scan someone
    /// asked for (`af trigger`, half-press) is under way. Continuous AF's own rescans do not count.
    public var isBusy: Bool {
        machine.isBusy || (focus.isScanning && focus.isRequested)
    }

    /// The board's fitting for the current camera.
    public var currentFitting: CameraFitting? { current.flatMap { board.fitting(for: $0) } }

    /// The board's fitting for any camera.
    public func fitting(for camera: CameraInfo) -> CameraFitting? { board.fitting(for: camera) }

    /// The position of a camera: the board's word, else the camera's.
    public func position(of camera: CameraInfo) -> CameraPosition {
        board.fitting(for: camera)?.position ?? camera.position
    }

    /// Whether the running camera has a flash: its scene is lit by the torch LED.
    public var hasFlash: Bool {
        (currentFitting?.torch ?? false) && (delegate?.captureEngineHasFlashOutput(self) ?? false)
    }

    /// Switches to the next camera in the list and returns it; `completion` runs on the loop
    /// once it streams, or with the error (see `run(_:then:)`).
    @discardableResult
    public func switchToNext(then completion: @escaping ((any Error)?) -> Void = { _ in }) throws
        -> CameraInfo
    {
        guard !cameras.isEmpty else { throw CaptureError.noCamera }
        let index = current.flatMap { cur in cameras.firstIndex { $0.id == cur.id } } ?? -1
        let next = cameras[(index + 1) % cameras.count]
        try run(next, then: completion)
        return next
    }

    /// Switches to the camera with `id` (or model); `completion` as for `switchToNext`.
    public func select(id: String, then completion: @escaping ((any Error)?) -> Void = { _ in }) throws {
        guard let camera = cameras.first(where: { $0.id == id || $0.model == id }) else {
            throw CameraError.unknownCamera(id, available: cameras.map(\.id))
        }
        try run(camera, then: completion)
    }
}
