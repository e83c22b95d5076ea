// One libcamera camera: configuration, streaming with frames handed to the loop, controls by name.

import CameraShimInterface
import PinholeCore

/// A camera opened through libcamera (the C++ shim).
///
/// Completed requests arrive on libcamera's thread; their metadata and buffer addresses are
/// posted to the event loop, where they become `LibcameraFrame`s. A frame's buffers stay
/// mapped until it is released, even across a stop or a reconfiguration (each start maps a
/// new generation of buffers; an old one is unmapped once its last frame is released).
final class LibcameraDevice: CameraDevice {
    let description: LibcameraDescription
    let loop: EventLoop
    private let shim: LibcameraShim
    private var handle: OpaquePointer?
    private var onFrame: ((any CameraFrame) -> Void)?
    private var running = false
    private var closing = false
    private var generation: Int32 = 0
    private var outstanding: [Int32: Int] = [:]
    private var stillFormat = LibcameraFormat.supported[0]
    private var viewfinderFormat: LibcameraFormat?
    private var videoFormat: LibcameraFormat?
    /// The video stream asked for: its frames come from the camera's video stream, or are
    /// scaled from the still stream where the camera has no separate one.
    private var videoSize: PixelSize?
    private var config = pinhole_lc_config()
    private var callbackBox: Unmanaged<CallbackBox>?
    /// Called once the camera is really released (after close and the last frame).
    var onClosed: (() -> Void)?
    /// The camera's session thread: starts, stops and closes run there, never on the loop.
    let session = WorkLane()
    /// Session commands under way: meanwhile the session thread owns the device, and the
    /// loop keeps its completed requests and releases until they end.
    var commandsRunning = 0
    /// Completed requests and releases that arrived during a command, in order.
    var deferred: [() -> Void] = []
    /// The next start's callback box, made on the loop (a start on the session thread uses it).
    private var preparedBox: Unmanaged<CallbackBox>?

    /// Makes the next start's callback box here, on the loop.
    func prepareStart() {
        if preparedBox == nil { preparedBox = Unmanaged.passRetained(CallbackBox(loop: loop, device: self)) }
    }

    /// Wraps a camera `acquire` returned.
    init(description: LibcameraDescription, loop: EventLoop, camera: AcquiredCamera) {
        self.description = description
        self.loop = loop
        self.shim = camera.shim
        self.handle = camera.handle
    }

    /// Acquires the camera `id` for this process (any thread; it can block on a camera that
    /// does not answer).
    static func acquire(_ id: String) throws -> AcquiredCamera {
        let shim = try LibcameraShim.shared()
        var error = [CChar](repeating: 0, count: 512)
        guard let opened = shim.open(id, &error) else {
            throw CameraError.failed(shimText(error))
        }
        return AcquiredCamera(handle: opened, shim: shim)
    }

    var info: CameraInfo { description.info }

    /// Whether the camera has been given back to libcamera (closed, its last frame released).
    var isReleased: Bool { handle == nil }

    /// A closed device asked for again before it was released: use it again.
    func reopen() { closing = false }

    func configure(_ wanted: StreamRequest) throws -> ConfigurationOutcome {
        guard let handle else { throw CameraError.failed("camera \(info.id) is closed") }
        guard wanted.stillSize.width > 0, wanted.stillSize.height > 0 else {
            throw CameraError.invalidConfiguration("still size \(wanted.stillSize) is empty")
        }
        var notes: [String] = []
        let offered = LibcameraFormat.supported.filter { description.stillFormats[$0] != nil }
        guard let still = offered.first(where: { $0.pixelFormat == wanted.stillFormat }) ?? offered.first
        else {
            throw CameraError.invalidConfiguration(
                "camera \(info.model) offers no still format Pinhole can encode")
        }
        let viewfinder = LibcameraFormat.supported.first { description.viewfinderFormats[$0] != nil }
        var config = pinhole_lc_config()
        config.still_width = UInt32(wanted.stillSize.width)
        config.still_height = UInt32(wanted.stillSize.height)
        Self.setName(&config.still_format, still.name)
        config.viewfinder_width = UInt32(wanted.viewfinderSize.width)
        config.viewfinder_height = UInt32(wanted.viewfinderSize.height)
        Self.setName(&config.viewfinder_format, (viewfinder ?? still).name)
        if let video = wanted.video {
            config.video_width = UInt32(max(0, video.size.width))
            config.video_height = UInt32(max(0, video.size.height))
            config.video_fps = Int32(clamping: video.fps)
            let format = LibcameraFormat.supported.first { description.videoFormats[$0] != nil }
            Self.setName(&config.video_format, (format ?? still).name)
        }
        var error = [CChar](repeating: 0, count: 512)
        let status = shim.configure(handle, &config, &error)
        guard status >= 0 else { throw CameraError.invalidConfiguration(shimText(error)) }
        guard let usedStill = LibcameraFormat.named(Self.name(config.still_format)) else {
            throw CameraError.invalidConfiguration(
                "libcamera chose still format \(Self.name(config.still_format))")
        }
        self.config = config
        stillFormat = usedStill
        viewfinderFormat =
            config.streams > 1 ? LibcameraFormat.named(Self.name(config.viewfinder_format)) : nil
        var used = wanted
        used.stillSize = PixelSize(width: Int(config.still_width), height: Int(config.still_height))
        used.stillFormat = usedStill.pixelFormat
        if used.stillSize != wanted.stillSize {
            notes.append("still size \(wanted.stillSize) → \(used.stillSize)")
        }
        if used.stillFormat != wanted.stillFormat {
            notes.append(
                "still format \(wanted.stillFormat.rawValue) → \(used.stillFormat.rawValue) (\(usedStill.name))"
            )
        }
        if viewfinderFormat != nil {
            used.viewfinderSize = PixelSize(
                width: Int(config.viewfinder_width), height: Int(config.viewfinder_height))
        } else {
            notes.append("no viewfinder stream: viewfinder images are scaled from the still stream")
        }
        if used.viewfinderSize != wanted.viewfinderSize {
            notes.append("viewfinder size \(wanted.viewfinderSize) → \(used.viewfinderSize)")
        }
        notes += configureVideo(wanted.video, config: config, used: &used)
        return notes.isEmpty && status == 0 ? .valid(used) : .adjusted(used, notes: notes)
    }

    /// Records how video frames will be made and what changed: the video stream's size where
    /// libcamera adjusted it; the still stream scaled where the camera runs no video stream
    /// beside it (vimc has one stream); a rate the camera does not let Pinhole set.
    private func configureVideo(
        _ wanted: VideoStreamRequest?, config: pinhole_lc_config, used: inout StreamRequest
    ) -> [String] {
        videoFormat = nil
        videoSize = wanted?.size
        guard let wanted else { return [] }
        var notes: [String] = []
        if config.video != 0, let format = LibcameraFormat.named(Self.name(config.video_format)) {
            videoFormat = format
            let size = PixelSize(width: Int(config.video_width), height: Int(config.video_height))
            if size != wanted.size {
                // The encoder takes the asked size: libcamera's is scaled to it.
                notes.append(
                    "video stream \(wanted.size) → \(size), scaled to \(wanted.size) for the encoder")
            }
        } else {
            notes.append(
                "no video stream beside the still stream: video frames are scaled from the still stream")
        }
        if config.frame_rate_set == 0 {
            notes.append(
                "the camera does not report FrameDurationLimits: it runs at its own rate, the clip's times follow its frames"
            )
        }
        used.video = wanted
        return notes
    }

    func start(onFrame: @escaping (any CameraFrame) -> Void) throws {
        guard let handle else { throw CameraError.failed("camera \(info.id) is closed") }
        guard !running else { return }
        let previous = generation
        let box = preparedBox ?? Unmanaged.passRetained(CallbackBox(loop: loop, device: self))
        preparedBox = nil
        var error = [CChar](repeating: 0, count: 512)
        let result = shim.startCamera(
            handle,
            { context, frame in
                guard let context, let frame else { return }
                let box = Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue()
                box.completed(CompletedRequest(frame.pointee))
            }, box.toOpaque(), &error)
        guard result == 0 else {
            box.release()
            throw CameraError.failed(shimText(error))
        }
        callbackBox?.release()
        callbackBox = box
        generation = previous + 1
        self.onFrame = onFrame
        running = true
        if previous > 0, outstanding[previous, default: 0] == 0 {
            shim.releaseGeneration(handle, previous)
        }
    }

    func stop() {
        guard let handle, running else { return }
        running = false
        onFrame = nil
        shim.stopCamera(handle)
    }

    func close() {
        stop()
        closing = true
        finishClosingIfIdle()
    }

    func setControls(_ controls: [String: ControlValue]) throws {
        guard let handle else { throw CameraError.failed("camera \(info.id) is closed") }
        // Every control is checked before any is queued: a bad one changes nothing.
        try info.checkControls(controls)
        for (name, value) in controls {
            let (kind, numbers): (Int32, [Double])
            switch value {
            case .bool(let flag): (kind, numbers) = (0, [flag ? 1 : 0])
            case .int(let int): (kind, numbers) = (1, [Double(int)])
            case .double(let double): (kind, numbers) = (2, [double])
            case .rectangles(let rects):
                (kind, numbers) = (3, rects.flatMap { [$0.x, $0.y, $0.width, $0.height] })
            }
            var error = [CChar](repeating: 0, count: 512)
            guard shim.setControl(handle, name, kind, numbers, &error) == 0 else {
                throw CameraError.failed(shimText(error))
            }
        }
    }

    // MARK: Frames (on the loop)

    fileprivate func completed(_ request: CompletedRequest) {
        if commandsRunning > 0 { return deferred.append { [weak self] in self?.completed(request) } }
        guard running, request.generation == generation, let onFrame else { return }
        outstanding[request.generation, default: 0] += 1
        let frame = LibcameraFrame(
            device: self, request: request, still: stillFormat,
            stillSize: PixelSize(width: Int(config.still_width), height: Int(config.still_height)),
            stillStride: Int(config.still_stride), viewfinder: viewfinderFormat,
            viewfinderSize: PixelSize(
                width: Int(config.viewfinder_width),
                height: Int(config.viewfinder_height)),
            viewfinderStride: Int(config.viewfinder_stride),
            video: videoSize.map {
                LibcameraFrame.VideoSource(
                    format: videoFormat,
                    streamSize: PixelSize(width: Int(config.video_width), height: Int(config.video_height)),
                    stride: Int(config.video_stride), size: $0)
            })
        onFrame(frame)
    }

    /// A frame was released (on the loop): give its request back, or unmap an old generation.
    func released(request: Int32, generation frameGeneration: Int32) {
        if commandsRunning > 0 {
            return deferred.append { [weak self] in
                self?.released(request: request, generation: frameGeneration)
            }
        }
        outstanding[frameGeneration, default: 1] -= 1
        let left = outstanding[frameGeneration] ?? 0
        if left <= 0 { outstanding[frameGeneration] = nil }
        guard let handle else { return }
        if frameGeneration == generation && running {
            shim.requeue(handle, request)
        } else if frameGeneration != generation && left <= 0 {
            shim.releaseGeneration(handle, frameGeneration)
        }
        finishClosingIfIdle()
    }

    private func finishClosingIfIdle() {
        guard closing, outstanding.isEmpty, let handle else { return }
        shim.close(handle)
        self.handle = nil
        callbackBox?.release()
        callbackBox = nil
        onClosed?()
    }

    private static func setName(
        _ field:
            inout (
                CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                CChar, CChar, CChar, CChar, CChar, CChar
            ), _ name: String
    ) {
        var bytes = Array(name.utf8.prefix(15).map { CChar(bitPattern: $0) })
        bytes += [CChar](repeating: 0, count: 16 - bytes.count)
        withUnsafeMutableBytes(of: &field) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = UInt8(bitPattern: byte) }
        }
    }

    private static func name(
        _ field: (
            CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
            CChar, CChar, CChar, CChar, CChar, CChar
        )
    ) -> String {
        withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// What the shim reported for a completed request, made safe to carry to the loop.
struct CompletedRequest: Sendable {
    var request: Int32
    var generation: Int32
    var metadata: FrameMetadata
    var still: [MappedPlane]
    var viewfinder: [MappedPlane]
    var video: [MappedPlane]

    init(_ frame: pinhole_lc_frame) {
        request = frame.request
        generation = frame.generation
        let optional: (Double) -> Double? = { $0.isNaN ? nil : $0 }
        // Presses (gpiod edges) are CLOCK_MONOTONIC; SensorTimestamp is CLOCK_BOOTTIME.
        let timestamp =
            frame.timestamp_is_boottime != 0
            ? BootClock.monotonic(fromBootTime: frame.timestamp_ns, offset: BootClock.bootMinusMonotonic())
            : Instant(nanoseconds: frame.timestamp_ns)
        metadata = FrameMetadata(
            sequence: frame.sequence, sensorTimestamp: timestamp,
            exposureTime: .microseconds(max(0, frame.exposure_us)),
            analogueGain: optional(frame.analogue_gain) ?? 1, digitalGain: optional(frame.digital_gain) ?? 1,
            lensPosition: optional(frame.lens_position), lux: optional(frame.lux),
            colourTemperature: optional(frame.colour_temperature),
            afState: frame.af_state >= 0 ? Int(frame.af_state) : nil,
            wallClock: frame.wall_clock_ns >= 0
                ? BootClock.wallTime(realtimeNanoseconds: frame.wall_clock_ns) : nil)
        let planes = [frame.still.0, frame.still.1, frame.still.2]
        still = planes.prefix(Int(frame.still_planes)).map(MappedPlane.init)
        let vf = [frame.viewfinder.0, frame.viewfinder.1, frame.viewfinder.2]
        viewfinder = vf.prefix(Int(frame.viewfinder_planes)).map(MappedPlane.init)
        let videoPlanes = [frame.video.0, frame.video.1, frame.video.2]
        video = videoPlanes.prefix(Int(frame.video_planes)).map(MappedPlane.init)
    }
}

/// A mapped buffer plane: address and length (valid until its frame is released).
struct MappedPlane: Sendable {
    var address: UInt
    var length: Int

    init(_ plane: pinhole_lc_plane) {
        address = UInt(bitPattern: plane.data)
        length = plane.length
    }

    /// The plane's bytes.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: length)
    }
}

/// Carries completions from libcamera's thread to the loop.
private final class CallbackBox: @unchecked Sendable {
    let loop: EventLoop
    private let device: LoopBound<WeakDevice>

    init(loop: EventLoop, device: LibcameraDevice) {
        self.loop = loop
        self.device = LoopBound(WeakDevice(device), loop: loop)
    }

    func completed(_ request: CompletedRequest) {
        let device = self.device
        loop.post { device.value.device?.completed(request) }
    }
}

private final class WeakDevice {
    weak var device: LibcameraDevice?
    init(_ device: LibcameraDevice) { self.device = device }
}
