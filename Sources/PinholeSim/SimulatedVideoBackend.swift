// A fake video backend for tests: deterministic packets (a keyframe per interval) and a container that records them.

import PinholeCore

/// Encodes nothing: each frame becomes one packet of a fixed size (keyframes four times larger),
/// with no encoder delay, so tests can count packets, bytes and keyframes exactly.
public struct SimulatedVideoBackend: VideoBackend {
    /// Which encoders "exist".
    public var encoders: Set<VideoEncoderKind>

    /// Creates a backend offering `encoders`.
    public init(encoders: Set<VideoEncoderKind> = [.libx264]) {
        self.encoders = encoders
    }

    /// Whether `encoder` is offered.
    public func available(_ encoder: VideoEncoderKind) -> Bool { encoders.contains(encoder) }

    /// A fake encoder.
    public func makeEncoder(_ settings: ClipEncoderSettings) throws(VideoError) -> any ClipEncoder {
        guard encoders.contains(settings.encoder) else {
            throw .encoder("no \(settings.encoder.codecName) here")
        }
        return SimulatedClipEncoder(settings)
    }

    /// A fake container writer.
    public func makeWriter(
        settings: ClipEncoderSettings, codecHeader: [UInt8], metadata: ClipMetadata, sink: any ClipSink
    ) throws(VideoError) -> any ClipWriter {
        try SimulatedClipWriter(codecHeader: codecHeader, sink: sink)
    }
}

/// One packet per frame: `bitRate / fps / 8` bytes, keyframes four times that (see `packetSize`).
public final class SimulatedClipEncoder: ClipEncoder {
    let settings: ClipEncoderSettings
    private var frames = 0
    private var finished = false

    init(_ settings: ClipEncoderSettings) { self.settings = settings }

    /// A fixed header.
    public var codecHeader: [UInt8] { [0x01, 0x64, 0x00, 0x28] }

    /// One packet, a keyframe every `keyframeInterval` frames or when forced.
    public func encode(
        _ image: RawImage, presentationMicroseconds: Int64, forceKeyframe: Bool
    ) throws(VideoError) -> [EncodedPacket] {
        guard !finished else { throw .encoder("finished") }
        guard image.width == settings.size.width, image.height == settings.size.height else {
            throw .badFrame(
                "\(image.width)x\(image.height) given, the encoder was opened for \(settings.size)")
        }
        let key = forceKeyframe || frames % settings.keyframeInterval == 0
        if forceKeyframe { frames = 0 }
        frames += 1
        let size = packetSize(keyframe: key)
        return [
            EncodedPacket(
                bytes: [UInt8](repeating: key ? 0x65 : 0x41, count: size),
                presentationMicroseconds: presentationMicroseconds, isKeyframe: key)
        ]
    }

    /// `bitRate / fps / 8` bytes, a keyframe four times that. With a rate buffer (a pre-roll
    /// ring armed) the rate is held as libx264's VBV holds it: a group of pictures is exactly
    /// its share of the bit rate, its keyframe four times its other frames.
    func packetSize(keyframe: Bool) -> Int {
        let average = max(1, settings.bitRate / max(1, settings.fps) / 8)
        guard settings.rateBufferBits != nil else { return average * (keyframe ? 4 : 1) }
        let group = settings.keyframeInterval
        let other = max(1, average * group / (group + 3))
        return keyframe ? average * group - other * (group - 1) : other
    }

    /// Nothing is held back.
    public func finish() throws(VideoError) -> [EncodedPacket] {
        finished = true
        return []
    }
}

/// Writes a header, then each packet's bytes; a fragment ends at each keyframe and at the end.
public final class SimulatedClipWriter: ClipWriter {
    let sink: any ClipSink
    private var written = 0
    private var closed = false

    init(codecHeader: [UInt8], sink: any ClipSink) throws(VideoError) {
        self.sink = sink
        try put(codecHeader, into: sink)
        try sink.fragmentCompleted()
    }

    /// Appends the packet's bytes.
    public func write(_ packet: EncodedPacket) throws(VideoError) {
        guard !closed else { throw .writer("closed") }
        if packet.isKeyframe && written > 0 { try sink.fragmentCompleted() }
        try put(packet.bytes, into: sink)
        written += 1
    }

    /// The last fragment.
    public func finish() throws(VideoError) {
        guard !closed else { throw .writer("closed") }
        closed = true
        try sink.fragmentCompleted()
    }

    /// Stops.
    public func abort() { closed = true }
}

/// Writes `bytes` into `sink`, keeping the sink's typed error.
private func put(_ bytes: [UInt8], into sink: any ClipSink) throws(VideoError) {
    var failure: VideoError?
    bytes.withUnsafeBytes { raw in
        do throws(VideoError) {
            try sink.write(raw)
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
}
