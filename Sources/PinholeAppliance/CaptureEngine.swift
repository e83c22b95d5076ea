// Runs the current camera, keeps a ring of recent frames, and turns presses into saved photos.

import PinholeCore
import PinholeImaging

/// Errors of the capture path.
public enum CaptureError: Error, CustomStringConvertible {
    /// No camera is running.
    case noCamera
    /// The camera sent no frame in time.
    case noFrame(camera: String, waited: Duration)
    /// Encoding or storing failed.
    case failed(String)

    public var description: String {
        switch self {
        case .noCamera: return "no camera is running: check `camera list` and the camera cable"
        case .noFrame(let camera, let waited):
            return "camera \(camera) sent no frame in \(Int(waited.milliseconds)) ms: the photo was not taken"
        case .failed(let why): return why
        }
    }
}

/// The camera side of the appliance: discovery, switching, frame ring and captures.
public final class CaptureEngine {
    private let loop: EventLoop
    private let provider: any CameraProvider
    private let board: BoardProfile
    private let encoder: any StillEncoder
    private let store: any PhotoStore
    private let software: String

    /// Cameras found at start.
    public private(set) var cameras: [CameraInfo] = []
    /// The running camera.
    public private(set) var current: CameraInfo?
    private var device: (any CameraDevice)?
    /// The configuration in use, after validation.
    public private(set) var configuration: ConfigurationOutcome?
    private var ring: [any CameraFrame] = []
    /// Frames kept for zero shutter lag.
    public let ringSize = 2
    private var pending: [PendingCapture] = []
    private var inFlight = 0
    /// Metadata of the most recent frame.
    public private(set) var lastFrame: FrameMetadata?
    /// Frames received from the current camera.
    public private(set) var framesReceived = 0
    /// How long a capture waits for a frame before failing.
    public var frameTimeout: Duration = .seconds(2)
    /// Extra metadata supplier (orientation from a tilt sensor, flash, GPS …).
    public var metadataAdjuster: ((inout PhotoMetadata) -> Void)?

    private struct PendingCapture {
        var pressedAt: Instant
        var timeout: TimerID
        var completion: (Result<CaptureResult, Error>) -> Void
    }

    /// Creates an engine.
    public init(loop: EventLoop, provider: any CameraProvider, board: BoardProfile, encoder: any StillEncoder,
                store: any PhotoStore, software: String) {
        self.loop = loop
        self.provider = provider
        self.board = board
        self.encoder = encoder
        self.store = store
        self.software = software
    }

    /// Whether captures are waiting for a frame or being encoded and stored.
    public var isBusy: Bool { !pending.isEmpty || inFlight > 0 }

    /// The board's fitting for the current camera.
    public var currentFitting: CameraFitting? { current.flatMap { board.fitting(for: $0) } }

    /// The board's fitting for any camera.
    public func fitting(for camera: CameraInfo) -> CameraFitting? { board.fitting(for: camera) }

    /// The position of a camera: the board's word, else the camera's.
    public func position(of camera: CameraInfo) -> CameraPosition {
        board.fitting(for: camera)?.position ?? camera.position
    }

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

    /// Switches to the camera with `id`.
    public func select(id: String) throws {
        guard let camera = cameras.first(where: { $0.id == id || $0.model == id }) else {
            throw CameraError.unknownCamera(id, available: cameras.map(\.id))
        }
        try run(camera)
    }

    /// Sets controls on the running camera.
    public func setControls(_ controls: [String: ControlValue]) throws {
        guard let device else { throw CaptureError.noCamera }
        try device.setControls(controls)
    }

    /// Half-press of a two-stage shutter: focus and lock exposure and white balance until
    /// `endHalfPress`. Controls the camera does not report are skipped.
    public func beginHalfPress() {
        guard let device, let camera = current else { return }
        if camera.controls["AeLocked"] != nil { try? device.setControls(["AeLocked": .bool(true)]) }
    }

    /// Half-press released: exposure and white balance follow the scene again.
    public func endHalfPress() {
        guard let device, let camera = current else { return }
        if camera.controls["AeLocked"] != nil { try? device.setControls(["AeLocked": .bool(false)]) }
    }

    /// Stops the camera and returns every buffer; pending captures fail.
    public func stop() {
        device?.stop()
        releaseRing()
        let waiting = pending
        pending.removeAll()
        for capture in waiting {
            loop.cancel(capture.timeout)
            capture.completion(.failure(CaptureError.noCamera))
        }
        device?.close()
        device = nil
        current = nil
    }

    private func run(_ camera: CameraInfo) throws {
        if let device {
            device.stop()
            device.close()
            releaseRing()
        }
        device = nil
        current = nil
        let opened = try provider.open(id: camera.id)
        let still = camera.stillSizes.first ?? camera.pixelArraySize
        configuration = try opened.configure(StreamRequest(stillSize: still))
        try opened.start { [weak self] frame in self?.frameArrived(frame) }
        device = opened
        current = camera
        framesReceived = 0
    }

    private func releaseRing() {
        for frame in ring { frame.release() }
        ring.removeAll()
    }

    // MARK: Frames and captures

    private func frameArrived(_ frame: any CameraFrame) {
        framesReceived += 1
        lastFrame = frame.metadata
        if let index = pending.firstIndex(where: { frame.metadata.wasExposing(at: $0.pressedAt) }) {
            let capture = pending.remove(at: index)
            loop.cancel(capture.timeout)
            process(frame, capture: capture, selection: .exposingAtPress)
            return
        }
        if let index = pending.firstIndex(where: { frame.metadata.sensorTimestamp >= $0.pressedAt }) {
            let capture = pending.remove(at: index)
            loop.cancel(capture.timeout)
            process(frame, capture: capture, selection: .nextAfterPress)
            return
        }
        ring.append(frame)
        while ring.count > ringSize { ring.removeFirst().release() }
    }

    /// Captures the frame that was exposing at `pressedAt` (now if nil) and stores it.
    public func capture(pressedAt: Instant? = nil, completion: @escaping (Result<CaptureResult, Error>) -> Void) {
        guard device != nil, let camera = current else {
            completion(.failure(CaptureError.noCamera))
            return
        }
        let press = pressedAt ?? loop.now
        if let index = ring.firstIndex(where: { $0.metadata.wasExposing(at: press) }) {
            let frame = ring.remove(at: index)
            process(frame, capture: nil, pressedAt: press, selection: .exposingAtPress, completion: completion)
            return
        }
        if let index = ring.firstIndex(where: { $0.metadata.sensorTimestamp >= press }) {
            let frame = ring.remove(at: index)
            process(frame, capture: nil, pressedAt: press, selection: .nextAfterPress, completion: completion)
            return
        }
        let waited = frameTimeout
        let timeout = loop.schedule(after: waited) { [weak self] in
            guard let self, let index = self.pending.firstIndex(where: { $0.pressedAt == press }) else { return }
            let capture = self.pending.remove(at: index)
            capture.completion(.failure(CaptureError.noFrame(camera: camera.model, waited: waited)))
        }
        pending.append(PendingCapture(pressedAt: press, timeout: timeout, completion: completion))
    }

    private func process(_ frame: any CameraFrame, capture: PendingCapture, selection: FrameSelection) {
        process(frame, capture: nil, pressedAt: capture.pressedAt, selection: selection, completion: capture.completion)
    }

    private func process(_ frame: any CameraFrame, capture: PendingCapture?, pressedAt: Instant,
                         selection: FrameSelection, completion: @escaping (Result<CaptureResult, Error>) -> Void) {
        guard let camera = current else {
            frame.release()
            completion(.failure(CaptureError.noCamera))
            return
        }
        let selectedAt = loop.now
        var metadata = photoMetadata(for: frame.metadata, camera: camera)
        metadataAdjuster?(&metadata)
        let finalMetadata = metadata
        let encoder = self.encoder
        let store = self.store
        inFlight += 1
        loop.offload({ () -> Result<SavedPhoto, Error> in
            Result {
                let image = try frame.stillImage()
                let jpeg = try encoder.encode(image: image, metadata: finalMetadata)
                return try store.store(jpeg: jpeg, metadata: finalMetadata)
            }
        }, then: { [weak self] outcome in
            frame.release()
            guard let self else { return }
            self.inFlight -= 1
            completion(outcome.map {
                CaptureResult(photo: $0, frame: frame.metadata, selection: selection, pressedAt: pressedAt,
                              selectedAt: selectedAt, savedAt: self.loop.now, metadata: finalMetadata,
                              cameraID: camera.id)
            })
        })
    }

    /// The metadata a frame's photo carries.
    public func photoMetadata(for frame: FrameMetadata, camera: CameraInfo) -> PhotoMetadata {
        let fitting = board.fitting(for: camera)
        let size: PixelSize
        switch configuration {
        case .valid(let request)?, .adjusted(let request, _)?: size = request.stillSize
        case nil: size = camera.pixelArraySize
        }
        var metadata = PhotoMetadata(pixelWidth: size.width, pixelHeight: size.height,
                                     orientation: Orientation(mountRotation: fitting?.mountRotation ?? 0))
        metadata.make = board.make
        metadata.model = camera.model
        metadata.software = software
        metadata.captureTime = loop.wallTime(at: frame.sensorTimestamp)
        metadata.exposureTime = frame.exposureTime.seconds
        metadata.iso = Int((frame.totalGain * 100).rounded())
        metadata.fNumber = fitting?.fNumber
        metadata.focalLength = fitting?.focalLength
        metadata.lensModel = fitting?.lensModel
        metadata.lensPosition = frame.lensPosition
        metadata.flashFired = (fitting?.torch ?? false) ? false : nil
        metadata.cameraID = camera.id
        metadata.exposureBias = 0
        metadata.manualExposure = false
        metadata.metering = "centre"
        metadata.manualWhiteBalance = false
        return metadata
    }
}
