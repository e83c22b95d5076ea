// Runs the current camera, keeps a ring of recent frames, and turns presses into saved photos.

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
public final class CaptureEngine {
    let loop: EventLoop
    let provider: any CameraProvider
    let board: BoardProfile
    private let encoder: any StillEncoder
    private let store: any PhotoStore
    private let software: String

    /// Cameras found at start.
    public private(set) var cameras: [CameraInfo] = []
    /// The running camera.
    public private(set) var current: CameraInfo?
    var device: (any CameraDevice)?
    /// The configuration in use, after validation.
    public private(set) var configuration: ConfigurationOutcome?
    var ring: [any CameraFrame] = []
    /// Full-resolution frames kept for zero shutter lag.
    public let ringSize = 2
    var pending: [PendingCapture] = []
    var flashCapture: FlashCapture?
    var inFlight = 0
    /// Metadata of the most recent frame.
    public private(set) var lastFrame: FrameMetadata?
    /// Frames received from the current camera.
    public private(set) var framesReceived = 0
    /// How long a capture waits for a frame before failing (longer than the watchdog's
    /// timeout, so that a press during a stall is served by the restarted camera).
    public var frameTimeout: Duration = .seconds(4)
    /// Extra metadata supplier (orientation from a tilt sensor, GPS …).
    public var metadataAdjuster: ((inout PhotoMetadata) -> Void)?
    /// Focus for the running camera.
    public let focus: FocusController
    /// Exposure and white balance asked for.
    public internal(set) var exposure = ExposureSettings() {
        didSet { exposureLog = Array((exposureLog + [(loop.now, exposure)]).suffix(8)) }
    }
    /// Recent settings with the time each was asked for, so that a photo's EXIF describes the
    /// settings in force when its frame was exposed (a ZSL frame may predate a change).
    var exposureLog: [(since: Instant, settings: ExposureSettings)] = []
    /// Whether AE and AWB are held (half-press).
    public internal(set) var exposureLocked = false
    /// When the flash fires.
    public internal(set) var flash = FlashPolicy()
    /// Lights or darkens the torch LED for the flash (set by the appliance); nil: no flash.
    public var flashDriver: ((Bool) -> Void)?
    /// The watchdog that restarts a camera that stops sending frames.
    public private(set) var watchdog: CameraWatchdog!
    /// Things that happen on their own (restarts, focus changes).
    public var onEvent: ((CaptureEngineEvent) -> Void)?
    /// Standby: asleep or streaming, and the last wake's cost.
    var standby = EngineStandby()

    struct PendingCapture {
        var pressedAt: Instant
        var timeout: TimerID
        var completion: (Result<CaptureResult, Error>) -> Void
    }

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
        self.watchdog = CameraWatchdog(loop: loop) { [weak self] silence in self?.cameraStalled(silence) }
        focus.onEvent = { [weak self] text in self?.onEvent?(.focus(text)) }
    }

    /// Whether captures are waiting for a frame or being encoded and stored, or a scan someone
    /// asked for (`af trigger`, half-press) is under way. Continuous AF's own rescans do not count.
    public var isBusy: Bool {
        !pending.isEmpty || inFlight > 0 || flashCapture != nil || (focus.isScanning && focus.isRequested)
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
    public var hasFlash: Bool { (currentFitting?.torch ?? false) && flashDriver != nil }

    /// Discovers cameras and starts the preferred one (the first back camera).
    public func start() throws {
        cameras = try provider.cameras()
        guard !cameras.isEmpty else { throw CameraError.noCamera(detail: "the camera system reports none") }
        let preferred = cameras.first { position(of: $0) == .back } ?? cameras[0]
        try run(preferred)
    }

    /// Switches to the next camera in the list; returns it.
    @discardableResult
    public func switchToNext() throws -> CameraInfo {
        guard !cameras.isEmpty else { throw CaptureError.noCamera }
        let index = current.flatMap { cur in cameras.firstIndex { $0.id == cur.id } } ?? -1
        let next = cameras[(index + 1) % cameras.count]
        try run(next)
        return next
    }

    /// Switches to the camera with `id` (or model).
    public func select(id: String) throws {
        guard let camera = cameras.first(where: { $0.id == id || $0.model == id }) else {
            throw CameraError.unknownCamera(id, available: cameras.map(\.id))
        }
        try run(camera)
    }

    /// Stops the camera and returns every buffer; pending captures fail.
    public func stop() {
        watchdog.stop()
        stopDevice()
        failWaiting(CaptureError.noCamera)
        device?.close()
        device = nil
        current = nil
        standby = EngineStandby()
    }

    func stopDevice() {
        focus.detach()
        device?.stop()
        releaseRing()
        if let flashCapture { finishFlash(flashCapture, frame: nil) }
    }

    private func failWaiting(_ error: Error) {
        let waiting = pending
        pending.removeAll()
        for capture in waiting {
            loop.cancel(capture.timeout)
            capture.completion(.failure(error))
        }
    }

    func run(_ camera: CameraInfo) throws {
        if let device {
            stopDevice()
            device.close()
        }
        device = nil
        current = nil
        let opened = try provider.open(id: camera.id)
        try startDevice(opened, camera: camera)
    }

    /// Configures and starts `opened`, then applies exposure and focus to it.
    func startDevice(_ opened: any CameraDevice, camera: CameraInfo) throws {
        standby.asleep = false
        let still = camera.stillSizes.first ?? camera.pixelArraySize
        configuration = try opened.configure(StreamRequest(stillSize: still))
        exposureLocked = false
        try? opened.setControls(exposure.startupControls(on: camera))
        try opened.start { [weak self] frame in self?.frameArrived(frame) }
        device = opened
        current = camera
        framesReceived = 0
        focus.attach(camera) { [weak self] controls in try self?.setControls(controls) }
        watchdog.start()
    }

    private func releaseRing() {
        for frame in ring { frame.release() }
        ring.removeAll()
    }

    // MARK: Frames and captures

    private func frameArrived(_ frame: any CameraFrame) {
        framesReceived += 1
        standby.frameArrived(at: loop.now)
        lastFrame = frame.metadata
        watchdog.frameArrived(exposure: frame.metadata.exposureTime)
        focus.frameArrived(frame)
        if flashCapture != nil, flashFrameArrived(frame) { return }
        if let (index, selection) = Self.match(pending, frame: { _ in frame.metadata }, press: \.pressedAt) {
            let capture = pending.remove(at: index)
            loop.cancel(capture.timeout)
            process(
                frame, pressedAt: capture.pressedAt, selection: selection, flashFired: false,
                completion: capture.completion)
            return
        }
        ring.append(frame)
        while ring.count > ringSize { ring.removeFirst().release() }
    }

    /// Captures the frame that was exposing at `pressedAt` (now if nil) and stores it; with
    /// the flash firing, the first frame wholly lit by it instead.
    public func capture(
        pressedAt: Instant? = nil, completion: @escaping (Result<CaptureResult, Error>) -> Void
    ) {
        guard device != nil, let camera = current else {
            completion(.failure(CaptureError.noCamera))
            return
        }
        let press = pressedAt ?? loop.now
        if flash.shouldFire(scene: lastFrame, hasFlash: hasFlash) {
            fireFlash(pressedAt: press, completion: completion)
            return
        }
        if let (index, selection) = Self.match(ring, frame: \.metadata, press: { _ in press }) {
            let frame = ring.remove(at: index)
            process(frame, pressedAt: press, selection: selection, flashFired: false, completion: completion)
            return
        }
        let waited = frameTimeout
        let timeout = loop.schedule(after: waited) { [weak self] in
            guard let self, let index = self.pending.firstIndex(where: { $0.pressedAt == press }) else {
                return
            }
            let capture = self.pending.remove(at: index)
            capture.completion(.failure(CaptureError.noFrame(camera: camera.model, waited: waited)))
        }
        pending.append(PendingCapture(pressedAt: press, timeout: timeout, completion: completion))
    }

    /// Zero shutter lag: among `candidates` (frames for one press, or presses for one frame),
    /// the first pairing whose frame was exposing at the press, else the first whose frame
    /// started after it.
    static func match<Candidate>(
        _ candidates: [Candidate], frame: (Candidate) -> FrameMetadata, press: (Candidate) -> Instant
    ) -> (index: Int, selection: FrameSelection)? {
        if let index = candidates.firstIndex(where: { frame($0).wasExposing(at: press($0)) }) {
            return (index, .exposingAtPress)
        }
        if let index = candidates.firstIndex(where: { frame($0).sensorTimestamp >= press($0) }) {
            return (index, .nextAfterPress)
        }
        return nil
    }

    func process(
        _ frame: any CameraFrame, pressedAt: Instant, selection: FrameSelection, flashFired: Bool,
        completion: @escaping (Result<CaptureResult, Error>) -> Void
    ) {
        guard let camera = current else {
            frame.release()
            completion(.failure(CaptureError.noCamera))
            return
        }
        let selectedAt = loop.now
        let (selection, wakeCost) = standby.selection(selection, pressedAt: pressedAt)
        var metadata = photoMetadata(for: frame.metadata, camera: camera)
        if metadata.flashFired != nil { metadata.flashFired = flashFired }
        metadataAdjuster?(&metadata)
        let finalMetadata = metadata
        let encoder = self.encoder
        let store = self.store
        let afState = focus.state
        inFlight += 1
        loop.offload(
            { () -> Result<SavedPhoto, Error> in
                Result {
                    let image = try frame.stillImage()
                    let jpeg = try encoder.encode(image: image, metadata: finalMetadata)
                    return try store.store(jpeg: jpeg, metadata: finalMetadata)
                }
            },
            then: { [weak self] outcome in
                frame.release()
                guard let self else { return }
                self.inFlight -= 1
                completion(
                    outcome.map {
                        CaptureResult(
                            photo: $0, frame: frame.metadata, selection: selection, pressedAt: pressedAt,
                            selectedAt: selectedAt, savedAt: self.loop.now, metadata: finalMetadata,
                            cameraID: camera.id, flashFired: finalMetadata.flashFired, afState: afState,
                            wakeCost: wakeCost)
                    })
            })
    }

    /// The metadata a frame's photo carries: what the frame really used, and the settings in force.
    public func photoMetadata(for frame: FrameMetadata, camera: CameraInfo) -> PhotoMetadata {
        let fitting = board.fitting(for: camera)
        let size: PixelSize
        switch configuration {
        case .valid(let request)?, .adjusted(let request, _)?: size = request.stillSize
        case nil: size = camera.pixelArraySize
        }
        var metadata = PhotoMetadata(
            pixelWidth: size.width, pixelHeight: size.height,
            orientation: Orientation(mountRotation: fitting?.mountRotation ?? 0))
        metadata.make = board.make
        metadata.model = camera.model
        metadata.software = software
        metadata.captureTime = loop.wallTime(at: frame.sensorTimestamp)
        // A camera that does not report its exposure (no IPA metadata) leaves the tag out.
        metadata.exposureTime = frame.exposureTime > .zero ? frame.exposureTime.seconds : nil
        metadata.iso = Int((frame.totalGain * 100).rounded())
        metadata.fNumber = fitting?.fNumber
        metadata.focalLength = fitting?.focalLength
        metadata.lensModel = fitting?.lensModel
        metadata.lensPosition = frame.lensPosition
        metadata.cameraID = camera.id
        if fitting?.torch ?? false {
            metadata.flashFired = false
            metadata.flashMode = flash.mode
        }
        let used = exposureLog.last { $0.since <= frame.sensorTimestamp }?.settings ?? ExposureSettings()
        metadata.manualExposure = used.isManual
        metadata.exposureBias = used.isManual ? 0 : used.ev
        if camera.controls["AeMeteringMode"] != nil { metadata.metering = used.metering.rawValue }
        metadata.manualWhiteBalance = used.whiteBalance != .auto
        return metadata
    }
}
