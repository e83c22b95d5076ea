// A simulated camera: frames on the loop's clock, an AE loop, a moving lens, controls by name.

import PinholeCore

/// A simulated camera device.
///
/// Frames start every frame period (longer when the exposure is longer); frame k's exposure
/// starts at its sensor timestamp and the frame is delivered one period later. The sensor's
/// clock does not wait for the loop: frame k+1 starts one period after frame k started, even
/// when the loop ran frame k's timer late (a busy machine), so a late loop catches up instead
/// of losing a little time at every frame. At most `bufferCount` frames may be held by the
/// application, and a loop later than `bufferCount` periods finds the frames in between gone;
/// both are counted as dropped, as a real camera without queued requests would drop them.
public final class SimulatedCamera: CameraDevice {
    /// The spec this camera simulates.
    public let spec: SimCameraSpec
    let loop: EventLoop
    let world: SimWorld
    private var request: StreamRequest
    private var onFrame: ((any CameraFrame) -> Void)?
    private var timer: TimerID?
    /// The sequence number of the next frame to start.
    var sequence: UInt64 = 0
    /// Controls waiting for the frame they take effect on.
    var queued: [(sequence: UInt64, controls: [String: ControlValue])] = []
    private var outstanding = 0
    /// Buffers the application may hold at once.
    public let bufferCount = 4
    /// Frames dropped because every buffer was held.
    public private(set) var droppedFrames = 0
    /// Frames delivered since creation.
    public private(set) var deliveredFrames = 0
    /// Times the camera was started.
    public private(set) var starts = 0
    private var closed = false
    /// Working planes shared by this camera's frames (a still scene renders them once).
    let renderCache = SimRenderCache()
    /// Whether a command of the session (`stop(then:)` …) is under way; later ones wait.
    var sessionBusy = false
    /// Commands waiting for the one under way, in order.
    var sessionWaiting: [() -> Void] = []
    /// Stops, starts and closes under way or done through the session (for tests).
    public internal(set) var sessionCommands: [String] = []

    // Control state (set by SimulatedCamera+Controls).
    var exposureTimeManual = false
    var gainManual = false
    var manualExposure: Duration = .microseconds(20_000)
    var manualGain = 1.0
    var exposureValue = 0.0
    var currentProduct = 0.0
    var lastExposure: Duration = .microseconds(20_000)
    var lastGain = 1.0
    var lensTarget: Double
    /// The lens position now, in dioptres.
    public private(set) var lensPosition: Double
    var awbMode = 0
    var awbEnabled = true
    var meteringMode = 0
    /// The part of the active area the streams show (ScalerCrop), normalized.
    public internal(set) var scalerCrop = NormalizedRect(x: 0, y: 0, width: 1, height: 1)
    /// Where AE meters (AeWindows), normalized to the active area; nil: the metering mode.
    public internal(set) var aeWindow: NormalizedRect?
    var autofocus = SimAutofocusAlgorithm()
    private var meteringCache:
        (scene: SimScene, mode: Int, crop: NormalizedRect, window: NormalizedRect?, value: Double)?

    init(spec: SimCameraSpec, loop: EventLoop, world: SimWorld) {
        self.spec = spec
        self.loop = loop
        self.world = world
        self.request = StreamRequest(stillSize: spec.pixelArraySize)
        self.lensTarget = spec.focusable ? 1.0 : spec.fixedLensPosition
        self.lensPosition = lensTarget
        self.currentProduct = SimRenderer.targetExposureProduct(
            lux: world.scene.lux,
            reflectance: world.scene.meanReflectance())
    }

    /// What the camera reports about itself.
    public var info: CameraInfo { spec.info }

    /// Whether `close()` was called (the provider then opens a fresh camera).
    public var isClosed: Bool { closed }

    /// Whether the camera is streaming.
    public var isRunning: Bool { timer != nil }

    /// Validates a stream request (valid, adjusted or invalid) and applies it.
    public func configure(_ wanted: StreamRequest) throws -> ConfigurationOutcome {
        guard wanted.stillSize.width > 0, wanted.stillSize.height > 0 else {
            throw CameraError.invalidConfiguration("still size \(wanted.stillSize) is empty")
        }
        var adjusted = wanted
        var notes: [String] = []
        if !spec.stillSizes.contains(wanted.stillSize) {
            let fit =
                spec.stillSizes.first {
                    $0.width <= wanted.stillSize.width && $0.height <= wanted.stillSize.height
                } ?? spec.stillSizes.last!
            adjusted.stillSize = fit
            notes.append("still size \(wanted.stillSize) → \(fit)")
        }
        if !info.stillFormats.contains(wanted.stillFormat) {
            adjusted.stillFormat = .yuv420
            notes.append("still format \(wanted.stillFormat.rawValue) → yuv420")
        }
        if !info.viewfinderSizes.contains(wanted.viewfinderSize) {
            adjusted.viewfinderSize = info.viewfinderSizes[0]
            notes.append("viewfinder size \(wanted.viewfinderSize) → \(adjusted.viewfinderSize)")
        }
        if let video = wanted.video {
            // libcamera validates a VideoRecording stream the same way: an unknown size or rate
            // is adjusted, and the engine refuses an adjusted video stream with the choices.
            if !info.videoSizes.contains(video.size) {
                adjusted.video?.size = info.videoSizes.first ?? video.size
                notes.append("video size \(video.size) → \(adjusted.video!.size)")
            }
            if !info.videoFrameRates.contains(video.fps) {
                adjusted.video?.fps = info.videoFrameRates.last ?? video.fps
                notes.append("video rate \(video.fps) → \(adjusted.video!.fps)")
            }
        }
        request = adjusted
        return notes.isEmpty ? .valid(adjusted) : .adjusted(adjusted, notes: notes)
    }

    /// Starts streaming; each frame is handed to `onFrame` on the loop.
    public func start(onFrame: @escaping (any CameraFrame) -> Void) throws {
        guard !closed else { throw CameraError.failed("camera \(spec.id) is closed") }
        guard timer == nil else { return }
        self.onFrame = onFrame
        starts += 1
        world.stalledCameras.remove(spec.id)
        applyQueued(upTo: .max)
        if spec.startupLatency > .zero {
            let first = loop.now + spec.startupLatency
            timer = loop.schedule(at: first) { [weak self] in self?.beginFrame(at: first) }
        } else {
            beginFrame(at: loop.now)
        }
    }

    /// Stops streaming; frames in flight are dropped. A camera whose stop hangs
    /// (`SimWorld.stopHangs`) holds the calling loop that long, as a blocking call would.
    public func stop() {
        if let hang = world.stopHangs[spec.id] { loop.block(for: hang) }
        halt()
    }

    /// Ends the stream now (what a stop does once it returns).
    func halt() {
        if let timer { loop.cancel(timer) }
        timer = nil
        onFrame = nil
    }

    /// Closes the camera, stopping it first if it runs.
    public func close() {
        stop()
        closed = true
    }

    /// Marks the camera closed without stopping it again (the session stopped it first).
    func markClosed() {
        halt()
        closed = true
    }

    // MARK: Frames

    private func exposureForNextFrame(scene: SimScene) -> (Duration, Double) {
        let target = Self.clampProduct(
            SimRenderer.targetExposureProduct(lux: scene.lux, reflectance: meteredReflectance(scene))
                * pow2(exposureValue))
        // Converge in log space, most of the way each frame (like an IPA's AGC filter).
        let ratio = target / currentProduct
        currentProduct = Self.clampProduct(
            currentProduct * (ratio < 1.02 && ratio > 0.98 ? ratio : exp(0.7 * log(ratio))))
        let maxAuto = 0.030
        switch (exposureTimeManual, gainManual) {
        case (true, true):
            return (manualExposure, manualGain)
        case (true, false):
            return (manualExposure, min(16, max(1, currentProduct / manualExposure.seconds)))
        case (false, true):
            return (Self.exposure(seconds: min(0.2, currentProduct / manualGain)), manualGain)
        case (false, false):
            let seconds = min(currentProduct, maxAuto)
            let gain = min(16, max(1, currentProduct / seconds))
            return (Self.exposure(seconds: seconds), gain)
        }
    }

    /// The sensor's shortest exposure: what the camera reports as ExposureTime's minimum.
    static let minimumExposure: Duration = .microseconds(100)

    /// An exposure time the sensor can do: at least `minimumExposure`, whatever `seconds` is
    /// (a blinding scene asks AE for less; NaN never reaches a conversion).
    static func exposure(seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > minimumExposure.seconds else { return minimumExposure }
        return .nanoseconds(Int64(min(seconds, 1000) * 1e9))
    }

    /// An exposure product (seconds × gain) AE can reach: between the shortest exposure at
    /// unity gain and 1000 s at gain 16 (so that no scene can make it zero, infinite or NaN).
    static func clampProduct(_ product: Double) -> Double {
        guard product.isFinite else { return product > 0 ? 16_000 : minimumExposure.seconds }
        return min(16_000, max(minimumExposure.seconds, product))
    }

    /// The scene's reflectance as AE weighs it: the AE window where one is set (in sensor
    /// coordinates), else the metering mode over the picture the crop shows: centre-weighted
    /// (0), spot (1: the central 10 %), or matrix (2: the whole picture evenly).
    private func meteredReflectance(_ scene: SimScene) -> Double {
        if let cached = meteringCache, cached.scene == scene, cached.mode == meteringMode,
            cached.crop == scalerCrop, cached.window == aeWindow
        {
            return cached.value
        }
        let value =
            aeWindow.map { scene.meanReflectance(in: $0) } ?? modeReflectance(scene.cropped(to: scalerCrop))
        meteringCache = (scene, meteringMode, scalerCrop, aeWindow, value)
        return value
    }

    private func modeReflectance(_ scene: SimScene) -> Double {
        switch meteringMode {
        case 1: return scene.meanReflectance(in: NormalizedRect(x: 0.45, y: 0.45, width: 0.1, height: 0.1))
        case 2: return scene.meanReflectance()
        default:
            let centre = scene.meanReflectance(in: NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
            return (scene.meanReflectance() + 2 * centre) / 3
        }
    }

    /// Starts the frame whose exposure begins at `start` (on the sensor's own schedule, which
    /// may be a little behind the loop's clock when its timer ran late).
    private func beginFrame(at scheduled: Instant) {
        var start = scheduled
        let behind = loop.now - scheduled
        let tolerated =
            (request.video.map { Duration.microseconds(1_000_000 / Int64(max(1, $0.fps))) }
                ?? spec.frameDuration) * bufferCount
        if behind > tolerated {
            // The loop stalled longer than the buffers cover: the frames in between were lost.
            let skipped = Int(behind.seconds / max(tolerated.seconds / Double(bufferCount), 1e-6))
            droppedFrames += skipped
            sequence += UInt64(skipped)
            start = loop.now
        }
        applyQueued(upTo: sequence)
        let scene = world.scene(seenFrom: spec.position)
        let (exposure, gain) = exposureForNextFrame(scene: scene)
        lastExposure = exposure
        lastGain = gain
        let streamPeriod = request.video.map { Duration.microseconds(1_000_000 / Int64(max(1, $0.fps))) }
        let period = max(streamPeriod ?? spec.frameDuration, exposure + .milliseconds(1))
        if spec.autofocusAlgorithm, let target = autofocus.frame(scene: scene, lensPosition: lensPosition) {
            lensTarget = target
        }
        // The lens moves during the frame at a finite speed.
        let travel = spec.lensSpeed * period.seconds
        if spec.focusable {
            lensPosition += max(-travel, min(travel, lensTarget - lensPosition))
        }
        let metadata = FrameMetadata(
            sequence: sequence, sensorTimestamp: start, exposureTime: exposure, analogueGain: gain,
            digitalGain: 1, lensPosition: spec.focusable ? lensPosition : nil, lux: scene.lux,
            focusFigureOfMerit: nil, colourTemperature: awbMode == 0 ? 5000 : 2500 + Double(awbMode) * 500,
            afState: spec.autofocusAlgorithm ? autofocus.state : nil,
            // libcamera ≥ 0.5.2 (the exposure-mode generation) reports FrameWallClock.
            wallClock: spec.controlStyle == .exposureModes ? loop.wallTime(at: start) : nil,
            controls: controlsInEffect)
        sequence += 1
        // The streams show the crop: the scene as the crop frames it, blur relative to it.
        let render = SimExposure(
            exposureTime: exposure, gain: gain, lensPosition: lensPosition,
            blurPerDioptre: spec.blurPerDioptre / scalerCrop.width, noiseSeed: metadata.sequence &+ 0x5151)
        let frame = SimulatedFrame(
            metadata: metadata, scene: scene.cropped(to: scalerCrop), exposure: render,
            stillSize: request.stillSize, viewfinderSize: request.viewfinderSize,
            videoSize: request.video?.size, cache: renderCache
        ) { [weak self] in
            self?.outstanding -= 1
        }
        timer = loop.schedule(at: start + period) { [weak self] in
            self?.deliver(frame)
            self?.beginFrame(at: start + period)
        }
    }

    private func deliver(_ frame: SimulatedFrame) {
        guard let onFrame, !world.stalledCameras.contains(spec.id), !world.deadCameras.contains(spec.id)
        else { return }
        guard outstanding < bufferCount else {
            droppedFrames += 1
            return
        }
        outstanding += 1
        deliveredFrames += 1
        onFrame(frame)
    }
}

@inline(__always)
private func pow2(_ x: Double) -> Double { exp(x * 0.693_147_180_559_945_3) }

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
