// What a recording is made with ([video] settings): size, rate, quality or bit rate, limits, encoder.

/// `quality`: bit rates after picamera2's H.264 presets at 1080p30 (4, 6 and 9 Mbps), scaled
/// by the pixel rate.
public enum VideoQuality: String, Sendable, Hashable, Codable, CaseIterable {
    /// 4 Mbps at 1080p30.
    case low
    /// 6 Mbps at 1080p30.
    case medium
    /// 9 Mbps at 1080p30.
    case high

    /// Bits per second at 1080p30.
    var fullHDBitRate: Int {
        switch self {
        case .low: return 4_000_000
        case .medium: return 6_000_000
        case .high: return 9_000_000
        }
    }
}

/// `encoder`: which H.264 encoder records.
public enum VideoEncoderChoice: String, Sendable, Hashable, Codable, CaseIterable {
    /// The Pi 4's hardware encoder where it exists, libx264 elsewhere.
    case auto
    /// The hardware encoder (`h264_v4l2m2m`); an error where there is none.
    case v4l2m2m
    /// The software encoder.
    case libx264
}

/// The encoder a recording will use, and why (for `pinhole doctor` and `record status`).
public struct EncoderPick: Sendable, Hashable {
    /// The encoder.
    public var kind: VideoEncoderKind
    /// Why it was picked.
    public var reason: String

    /// Creates a pick.
    public init(kind: VideoEncoderKind, reason: String) {
        self.kind = kind
        self.reason = reason
    }
}

/// The `[video]` settings.
public struct VideoSettings: Sendable, Hashable, Codable {
    /// `size`: frame size (default 1920x1080).
    public var size = PixelSize(width: 1920, height: 1080)
    /// `fps`: frames per second (default 30).
    public var fps = 30
    /// `quality`: used when `bitRate` is not set.
    public var quality = VideoQuality.medium
    /// `bitrate`: bits per second; overrides `quality`.
    public var bitRate: Int?
    /// `max_duration_s`: the longest clip, seconds (default 600).
    public var maxDurationSeconds = 600.0
    /// `keyframe_s`: seconds from one keyframe to the next, and so one fragment (default 1).
    public var keyframeSeconds = 1.0
    /// `encoder`: auto, v4l2m2m or libx264.
    public var encoder = VideoEncoderChoice.auto
    /// `pre_roll_s`: seconds of encoded video kept before every start (0: none, and the encoder
    /// runs only while recording).
    public var preRollSeconds = 0.0

    /// Bit rates accepted: a bit rate above 20 Mbps is unreliable on the Pi 4's encoder
    /// (raspberrypi/linux#4938), and below 100 kbps nothing is recognisable.
    public static let bitRateRange = 100_000...20_000_000
    /// The longest `max_duration_s` (a day).
    public static let longestClipSeconds = 86_400.0
    /// The widest and tallest video: H.264's largest level (6.2) codes 8192 × 4320.
    public static let largestSide = 8192
    /// The longest pre-roll (`--pre`, a trigger's `pre_s`).
    public static let longestPreRollSeconds = 30.0

    /// Creates the defaults.
    public init() {}

    /// The bit rate recorded with: `bitRate`, else `quality` scaled by pixel rate from 1080p30.
    public var effectiveBitRate: Int {
        if let bitRate { return bitRate }
        // In Double: width × height × rate of a size never validated overflows an Int.
        let scale = Double(size.width) * Double(size.height) * Double(fps) / Double(1920 * 1080 * 30)
        let scaled = Double(quality.fullHDBitRate) * scale
        return Int(
            min(max(scaled, Double(Self.bitRateRange.lowerBound)), Double(Self.bitRateRange.upperBound)))
    }

    /// Frames from one keyframe to the next.
    public var keyframeInterval: Int { max(1, Int((keyframeSeconds * Double(fps)).rounded())) }

    /// Checks the settings against themselves and, when given, against what the camera
    /// offers. Throws with the choices when something does not fit.
    public func validate(for camera: CameraInfo?) throws(VideoSettingsError) {
        guard (16...Self.largestSide).contains(size.width), (16...Self.largestSide).contains(size.height),
            size.width % 2 == 0, size.height % 2 == 0
        else {
            throw .badSize(size)
        }
        guard (1...120).contains(fps) else { throw .badRate(fps, offered: camera?.videoFrameRates ?? []) }
        if let bitRate, !Self.bitRateRange.contains(bitRate) { throw .bitRateOutOfRange(bitRate) }
        guard maxDurationSeconds.isFinite, maxDurationSeconds >= 1,
            maxDurationSeconds <= Self.longestClipSeconds
        else { throw .badMaxDuration(maxDurationSeconds) }
        guard keyframeSeconds.isFinite, keyframeSeconds >= 0.1, keyframeSeconds <= 10 else {
            throw .badKeyframe(keyframeSeconds)
        }
        guard preRollSeconds.isFinite, preRollSeconds >= 0, preRollSeconds <= Self.longestPreRollSeconds
        else {
            throw .badPreRoll(preRollSeconds)
        }
        guard let camera else { return }
        guard !camera.videoSizes.isEmpty else { throw .noVideoStream(camera: camera.model) }
        guard camera.videoSizes.contains(size) else {
            throw .sizeNotOffered(size, offered: camera.videoSizes)
        }
        guard camera.videoFrameRates.contains(fps) else {
            throw .badRate(fps, offered: camera.videoFrameRates)
        }
    }

    /// The encoder `encoder` resolves to from the board alone (`hardwareEncoder`: whether it has
    /// the Pi 4's V4L2 encoder device), without asking libavcodec: what `pinhole run` decides at
    /// start, so that libav is loaded only when a recording first opens the encoder, which then
    /// confirms the choice (an encoder libavcodec lacks fails that open with a clear error).
    public func pickEncoder(hardwareEncoder: Bool) throws(VideoSettingsError) -> EncoderPick {
        try pickEncoder(hardwareEncoder: hardwareEncoder, libavcodecHas: { _ in true })
    }

    /// The encoder `encoder` resolves to: `hardwareEncoder` says whether the board has the Pi 4's
    /// V4L2 encoder device, `libavcodecHas` whether libavcodec was built with an encoder.
    public func pickEncoder(
        hardwareEncoder: Bool, libavcodecHas: (VideoEncoderKind) -> Bool
    ) throws(VideoSettingsError) -> EncoderPick {
        let hardware = hardwareEncoder && libavcodecHas(.v4l2m2m)
        switch encoder {
        case .libx264:
            guard libavcodecHas(.libx264) else { throw .encoderMissing("libavcodec here has no libx264") }
            return EncoderPick(kind: .libx264, reason: "encoder = libx264 in [video]")
        case .v4l2m2m:
            guard hardware else {
                throw .encoderMissing(
                    "encoder = v4l2m2m, but this board has no V4L2 H.264 encoder (a Pi 4 has one; a Pi 5 does not)"
                )
            }
            return EncoderPick(kind: .v4l2m2m, reason: "encoder = v4l2m2m in [video]")
        case .auto:
            if hardware {
                return EncoderPick(
                    kind: .v4l2m2m, reason: "auto: the board's V4L2 H.264 encoder (Pi 4) is present")
            }
            guard libavcodecHas(.libx264) else {
                throw .encoderMissing(
                    "no V4L2 H.264 encoder on this board, and libavcodec here has no libx264")
            }
            return EncoderPick(
                kind: .libx264,
                reason: "auto: no V4L2 H.264 encoder on this board (Pi 5, x86): software libx264")
        }
    }

    /// What the encoder is opened with. With a pre-roll ring of `ringSeconds` armed, the ring
    /// must hold its span plus the group of pictures it starts in, within 1.2 × bit rate × span
    /// (issue 21): so keyframes come at least every span / 8 (`ringKeyframeSeconds`) and the
    /// rate is capped at the bit rate with a buffer of what is left of the 0.2 × span
    /// (libavcodec's rc_max_rate and rc_buffer_size: libx264's VBV), so that no span + one
    /// group of pictures of the stream exceeds the ring's bytes, the stream's start included.
    public func encoderSettings(_ kind: VideoEncoderKind, ringSeconds: Double = 0) -> ClipEncoderSettings {
        var settings = ClipEncoderSettings(
            size: size, fps: fps, bitRate: effectiveBitRate, keyframeInterval: keyframeInterval, encoder: kind
        )
        guard ringSeconds > 0, ringSeconds.isFinite else { return settings }
        let interval = ringKeyframeInterval(ringSeconds)
        settings.keyframeInterval = interval
        let slack = Self.ringHeadroom * ringSeconds - Double(interval) / Double(max(1, fps))
        settings.rateBufferBits = max(1, Int(Double(effectiveBitRate) * slack))
        return settings
    }

    /// The share of a ring's span that it may hold beyond the span (the 1.2 ×).
    public static let ringHeadroom = 0.2
    /// With a ring armed, keyframes come at least every span × this (the rest of the headroom
    /// is the rate buffer's).
    public static let ringKeyframeShare = 0.125

    /// Frames from one keyframe to the next while a ring of `ringSeconds` is armed: `keyframe_s`,
    /// or span / 8 when that is shorter.
    public func ringKeyframeInterval(_ ringSeconds: Double) -> Int {
        let cap = Int((ringSeconds * Self.ringKeyframeShare * Double(fps)).rounded(.down))
        return max(1, min(keyframeInterval, cap))
    }

    /// The keyframe interval's cost, for `pinhole doctor` and `record status`: nil without a ring
    /// or when `keyframe_s` is already short enough.
    public func ringKeyframeNote(_ ringSeconds: Double) -> String? {
        guard ringSeconds > 0 else { return nil }
        let interval = ringKeyframeInterval(ringSeconds)
        guard interval < keyframeInterval else { return nil }
        let seconds = Double(interval) / Double(max(1, fps))
        let shown = (seconds * 100).rounded() / 100
        return
            "keyframes every \(shown) s (not keyframe_s \(keyframeSeconds)) while the \(ringSeconds) s pre-roll ring"
            + " is armed, so it stays within 1.2 × bit rate × pre-roll: at the same bit rate the picture is"
            + " a little softer, and a clip has a fragment per keyframe"
    }
}

/// Why video settings or a recording request cannot be used; each message says what would do.
public enum VideoSettingsError: Error, CustomStringConvertible, Equatable {
    /// Width or height odd or tiny.
    case badSize(PixelSize)
    /// A size the camera does not list.
    case sizeNotOffered(PixelSize, offered: [PixelSize])
    /// A frame rate outside 1…120 or not listed by the camera.
    case badRate(Int, offered: [Int])
    /// A bit rate outside `VideoSettings.bitRateRange`.
    case bitRateOutOfRange(Int)
    /// `max_duration_s` or `--max` not a number of seconds in range.
    case badMaxDuration(Double)
    /// `--pre` or `pre_s` not a number of seconds in range.
    case badPreRoll(Double)
    /// `keyframe_s` out of range.
    case badKeyframe(Double)
    /// The camera offers no video stream.
    case noVideoStream(camera: String)
    /// The chosen encoder cannot run here.
    case encoderMissing(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .badSize(let size):
            return
                "video size \(size) is not usable: width and height must be even, at least 16 and at most \(VideoSettings.largestSide)"
        case .sizeNotOffered(let size, let offered):
            return
                "the camera offers no \(size) video stream: choose one of \(offered.map(\.description).joined(separator: ", "))"
        case .badRate(let fps, let offered):
            let choices = offered.isEmpty ? "1 to 120" : offered.map(String.init).joined(separator: ", ")
            return "video rate \(fps) fps is not offered: choose \(choices)"
        case .bitRateOutOfRange(let rate):
            return
                "bitrate \(rate) is out of range: \(VideoSettings.bitRateRange.lowerBound) to \(VideoSettings.bitRateRange.upperBound) bits per second"
        case .badMaxDuration(let seconds):
            return
                "maximum duration \(seconds) is not usable: give seconds from 1 to \(Int(VideoSettings.longestClipSeconds))"
        case .badPreRoll(let seconds):
            return
                "pre-roll \(seconds) is not usable: give seconds from 0 to \(Int(VideoSettings.longestPreRollSeconds))"
        case .badKeyframe(let seconds):
            return "keyframe_s \(seconds) is not usable: give seconds from 0.1 to 10"
        case .noVideoStream(let camera):
            return "camera \(camera) offers no video stream: recording needs one"
        case .encoderMissing(let reason):
            return "no H.264 encoder: \(reason) (tools/setup installs libavcodec with libx264)"
        }
    }
}
