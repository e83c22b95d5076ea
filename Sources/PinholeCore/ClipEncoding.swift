// The video encoder seam: raw frames in, encoded H.264 packets out (a libav backend, a fake in tests).

/// One encoded video packet (an H.264 access unit), timed in microseconds on the clip's own
/// timeline.
public struct EncodedPacket: Sendable, Hashable {
    /// The packet's bytes (Annex B or AVCC, as the encoder produced them).
    public var bytes: [UInt8]
    /// Presentation time in microseconds.
    public var presentationMicroseconds: Int64
    /// Decoding time in microseconds (equal to the presentation time without B-frames).
    public var decodingMicroseconds: Int64
    /// Whether the packet starts a group of pictures (a decoder can start here).
    public var isKeyframe: Bool

    /// Creates a packet.
    public init(
        bytes: [UInt8], presentationMicroseconds: Int64, decodingMicroseconds: Int64? = nil,
        isKeyframe: Bool
    ) {
        self.bytes = bytes
        self.presentationMicroseconds = presentationMicroseconds
        self.decodingMicroseconds = decodingMicroseconds ?? presentationMicroseconds
        self.isKeyframe = isKeyframe
    }
}

/// Which H.264 encoder libavcodec runs.
public enum VideoEncoderKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The Raspberry Pi 4's hardware encoder through V4L2 memory-to-memory (`h264_v4l2m2m`).
    case v4l2m2m
    /// The software encoder (`libx264`): Pi 5, x86 and everything else.
    case libx264

    /// libavcodec's name for the encoder.
    public var codecName: String {
        switch self {
        case .v4l2m2m: return "h264_v4l2m2m"
        case .libx264: return "libx264"
        }
    }
}

/// What an encoder is opened with.
public struct ClipEncoderSettings: Sendable, Hashable, Codable {
    /// Frame size (even width and height).
    public var size: PixelSize
    /// Frames per second.
    public var fps: Int
    /// Target bit rate in bits per second.
    public var bitRate: Int
    /// Frames from one keyframe to the next (a fragment and a ring entry start at each).
    public var keyframeInterval: Int
    /// The encoder to run.
    public var encoder: VideoEncoderKind
    /// With a pre-roll ring: the rate never exceeds `bitRate` beyond a buffer of this many bits
    /// (libavcodec's rc_buffer_size, with rc_max_rate = `bitRate`); nil: average bit rate only.
    public var rateBufferBits: Int?

    /// Creates settings.
    public init(size: PixelSize, fps: Int, bitRate: Int, keyframeInterval: Int, encoder: VideoEncoderKind) {
        self.size = size
        self.fps = fps
        self.bitRate = bitRate
        self.keyframeInterval = keyframeInterval
        self.encoder = encoder
    }

    /// One frame's duration in microseconds.
    public var frameMicroseconds: Int64 { 1_000_000 / Int64(max(fps, 1)) }
}

/// Encodes planar YUV 4:2:0 frames to H.264 packets. Used from one thread at a time (the
/// recording's encoder thread), never from the event loop.
public protocol ClipEncoder: AnyObject {
    /// The codec's global header (SPS and PPS) the container needs.
    var codecHeader: [UInt8] { get }
    /// Encodes one frame shown at `presentationMicroseconds` (a keyframe when `forceKeyframe`);
    /// returns the packets that came out (none while the encoder is filling its pipeline).
    func encode(
        _ image: RawImage, presentationMicroseconds: Int64, forceKeyframe: Bool
    ) throws(VideoError) -> [EncodedPacket]
    /// Drains the encoder: the packets still inside it. The encoder takes no frame after this.
    func finish() throws(VideoError) -> [EncodedPacket]
}

/// Errors of encoding and writing clips; each says what failed and why.
public enum VideoError: Error, CustomStringConvertible, Equatable {
    /// The encoder could not be opened or failed on a frame.
    case encoder(String)
    /// The container could not be written.
    case writer(String)
    /// The clip's bytes could not be kept (disk full, I/O error): `reason` names the cause.
    case storage(String)
    /// A frame does not fit the encoder (size or pixel format).
    case badFrame(String)
    /// The video backend (its shared object, or the codec libraries under it) is not installed:
    /// `reason` says what is missing and what to install.
    case unavailable(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .encoder(let reason): return "video encoder: \(reason)"
        case .writer(let reason): return "MP4 writer: \(reason)"
        case .storage(let reason): return "clip storage: \(reason)"
        case .badFrame(let reason): return "video frame: \(reason)"
        case .unavailable(let reason): return reason
        }
    }
}
