// `record`: start a clip (with pre-roll from the ring), stop it, or ask how it is going.

import PinholeAppliance
import PinholeCapture
import PinholeCore

/// `record start [--max S] [--pre S]`, `record stop`, `record status [--json]`.
public enum RecordCommand: ConsoleCommand {
    /// Start a clip: at most `max` seconds (nil: `max_duration_s`), `pre` seconds before now.
    case start(max: Double?, pre: Double)
    /// Stop the clip; the answer comes once it is saved.
    case stop
    /// The recording's progress.
    case status

    static let usage = "record start [--max SECONDS] [--pre SECONDS] | record stop | record status [--json]"

    /// The `record` verb.
    public static let definition = CommandDefinition(
        "record", group: .shooting,
        forms: [
            form(
                "record start [--max SECONDS] [--pre SECONDS]",
                "record a clip (H.264 MP4, no sound): --max ends it (default [video] max_duration_s), --pre starts it that far back from the pre-roll ring ([video] pre_roll_s)",
                "record start", "record start --max 30", "record start --pre 3"),
            form("record stop", "end the clip; the answer names the saved file", "record stop"),
            form(
                "record status [--json]", "recording or idle: clip number, seconds, size, frames, drops",
                "record status"),
        ]
    ) { words in
        switch words.word() {
        case "start":
            let max = try words.option("--max")
            let pre = try words.option("--pre")
            try words.finish(usage: "record start [--max SECONDS] [--pre SECONDS]")
            return RecordCommand.start(max: try max.map(maxSeconds), pre: try pre.map(preSeconds) ?? 0)
        case "stop":
            try words.finish(usage: "record stop")
            return RecordCommand.stop
        case "status":
            try words.finish(usage: "record status [--json]")
            return RecordCommand.status
        default:
            throw ConsoleError.usage("usage: " + usage)
        }
    }

    static func maxSeconds(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite, value >= 1, value <= VideoSettings.longestClipSeconds
        else {
            throw ConsoleError.usage(
                "--max \(text): give the longest clip in seconds, 1 to \(Int(VideoSettings.longestClipSeconds))"
            )
        }
        return value
    }

    static func preSeconds(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite, value >= 0,
            value <= VideoSettings.longestPreRollSeconds
        else {
            throw ConsoleError.usage(
                "--pre \(text): give the seconds before now, 0 to \(Int(VideoSettings.longestPreRollSeconds))"
            )
        }
        return value
    }

    /// Starts or stops the clip, or reports it.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        let appliance = console.appliance
        guard let recorder = appliance.recorder else {
            throw ConsoleError.unavailable("recording is not set up on this board")
        }
        do {
            switch self {
            case .start(let max, let pre):
                let id = try appliance.startRecording(maxSeconds: max, preSeconds: pre)
                reply(.success(json ? jsonLine(["recording": id]) : "ok recording \(id)"))
            case .stop:
                guard let id = recorder.status?.id else { throw RecordingError.notRecording }
                try recorder.stop { result in
                    // The answer says what the saved (or failed) event would.
                    console.answerReports(eventsStartingWith: [
                        "recording saved \(id) ", "recording failed \(id) ",
                    ])
                    switch result {
                    case .success(let clip):
                        reply(
                            .success(
                                json
                                    ? jsonLine(RecordAnswer(id: id, clip: clip))
                                    : "ok saved \(id) \(clip.path) \(clip.frameCount) frames \(Self.tenths(clip.durationSeconds)) s"
                            ))
                    case .failure(let error):
                        reply(.failure(ConsoleError.failed("clip \(id) was not saved: \(error)")))
                    }
                }
            case .status:
                reply(
                    .success(
                        json ? jsonLine(RecordStatusAnswer(recorder)) : "ok " + Self.statusLine(recorder)))
            }
        } catch let error as RecordingError {
            switch error {
            case .unavailable: throw ConsoleError.unavailable("\(error)")
            default: throw ConsoleError.usage("\(error)")
            }
        }
    }

    /// `12.3`: one decimal.
    static func tenths(_ value: Double) -> String {
        let tenths = Int((max(0, value) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `recording 3 12.0 s 4.1 MB 360 frames 0 dropped libx264` or `idle`.
    static func statusLine(_ recorder: ClipRecorder) -> String {
        guard let status = recorder.status else {
            let ring = recorder.settings.ringKeyframeNote(recorder.ringSeconds).map { "; \($0)" } ?? ""
            return
                "idle (\(recorder.settings.size) \(recorder.settings.fps) fps, \(recorder.pick.kind.codecName)\(ring))"
        }
        let seconds = Double(status.progress.durationMicroseconds) / 1_000_000
        let megabytes = Double(status.progress.bytes) / 1_000_000
        return "recording \(status.id) \(tenths(seconds)) s \(tenths(megabytes)) MB "
            + "\(status.progress.frames) frames \(status.droppedFrames) dropped \(status.encoder.codecName)"
    }
}

/// `record stop --json`.
struct RecordAnswer: Encodable {
    var id: Int
    var file: String
    var frames: Int
    var seconds: Double
    var bytes: Int64

    init(id: Int, clip: SavedClip) {
        self.id = id
        file = clip.path.string
        frames = clip.frameCount
        seconds = clip.durationSeconds
        bytes = clip.byteCount
    }
}

/// `record status --json`.
struct RecordStatusAnswer: Encodable {
    var recording: Bool
    var id: Int?
    var seconds: Double?
    var bytes: Int64?
    var frames: Int?
    var dropped: Int?
    var encoder: String
    var size: String
    var fps: Int
    /// The clip's first frame's time less the trigger's (or the start's), ms: ≤ −1000 × pre.
    var firstFrameMs: Double?
    /// From `record start` to the first frame in the file, ms.
    var startLatencyMs: Double?
    /// Bytes in the pre-roll ring now, and the most it has held.
    var ringBytes: Int?
    var ringPeakBytes: Int?
    /// Times the ring's byte limit cut it below its span.
    var ringShortfalls: Int?
    /// The ring's span, its byte limit (1.2 × bit rate × span) and the keyframe interval the
    /// encoder runs with (capped while a ring is armed).
    var ringSeconds: Double
    var ringLimitBytes: Int
    var keyframeSeconds: Double
    /// Whether the encoder is kept open between clips (video mode).
    var encoderReady: Bool
    /// The start latency's parts, ms: from `record start` to the first frame reaching the
    /// recorder and to the loop learning the clip's file and encoder are open; creating the
    /// file (the recording's lane), opening the encoder (beside the lane in photo mode, loading
    /// libav the first time), the lane's wait for it, opening the muxer, taking the first
    /// frame's image and encoding it.
    var startWaitMs: Double?
    var startOpenMs: Double?
    var startFileMs: Double?
    var startEncoderMs: Double?
    var startEncoderWaitMs: Double?
    var startWriterMs: Double?
    var startImageMs: Double?
    var startEncodeMs: Double?

    enum CodingKeys: String, CodingKey {
        case recording, id, seconds, bytes, frames, dropped, encoder, size, fps
        case firstFrameMs = "first_frame_ms"
        case startLatencyMs = "start_latency_ms"
        case ringBytes = "ring_bytes"
        case ringPeakBytes = "ring_peak_bytes"
        case ringShortfalls = "ring_shortfalls"
        case ringSeconds = "ring_s"
        case ringLimitBytes = "ring_limit_bytes"
        case keyframeSeconds = "keyframe_s"
        case encoderReady = "encoder_ready"
        case startWaitMs = "start_wait_ms"
        case startOpenMs = "start_open_ms"
        case startFileMs = "start_file_ms"
        case startEncoderMs = "start_encoder_ms"
        case startEncoderWaitMs = "start_encoder_wait_ms"
        case startWriterMs = "start_writer_ms"
        case startImageMs = "start_image_ms"
        case startEncodeMs = "start_encode_ms"
    }

    init(_ recorder: ClipRecorder) {
        let status = recorder.status
        recording = status != nil
        id = status?.id
        seconds = status.map { Double($0.progress.durationMicroseconds) / 1_000_000 }
        bytes = status?.progress.bytes
        frames = status?.progress.frames
        dropped = status?.droppedFrames
        encoder = recorder.pick.kind.codecName
        size = recorder.settings.size.description
        fps = recorder.settings.fps
        firstFrameMs = status?.firstFrameMilliseconds
        startLatencyMs = status?.startLatencyMilliseconds
        ringBytes = status?.progress.ringBytes
        ringPeakBytes = status?.progress.ringPeakBytes
        ringShortfalls = status?.progress.ringShortfalls
        ringSeconds = recorder.ringSeconds
        ringLimitBytes = PreRollRing.byteLimit(
            bitRate: recorder.encoderSettings.bitRate, seconds: recorder.ringSeconds)
        keyframeSeconds =
            Double(recorder.encoderSettings.keyframeInterval) / Double(max(1, recorder.settings.fps))
        encoderReady = recorder.keepsEncoderReady
        guard let status else { return }
        let since = { (instant: Instant?) in
            instant.map { Double(($0 - status.startedAt).nanoseconds) / 1_000_000 }
        }
        startWaitMs = since(status.firstArrivedAt)
        startOpenMs = since(status.openedAt)
        let trace = status.progress.trace
        startFileMs = trace.fileMilliseconds
        startEncoderMs = trace.encoderMilliseconds
        startEncoderWaitMs = trace.encoderWaitMilliseconds
        startWriterMs = trace.writerMilliseconds
        startImageMs = trace.imageMilliseconds
        startEncodeMs = trace.encodeMilliseconds
    }
}

extension RecordCommand {
    /// Record (with the running clip's time and size as the value), stop, and the photo/video
    /// mode on the Capture page.
    public static let menuEntries = [
        MenuEntry(.capture, at: 60) { menu in
            MenuItem(
                "Record",
                value: menu.snapshot.status?.recording.map { $0.line(bytes: StatusLine.bytes) }
                    ?? "start a clip (H.264 MP4, no sound)",
                action: .run(RecordCommand.start(max: nil, pre: 0)))
        },
        MenuEntry(.capture, at: 70) { _ in
            MenuItem("Stop recording", value: "end the clip and save it", action: .run(RecordCommand.stop))
        },
        MenuEntry(.capture, at: 80) { menu in
            MenuItem.info("Mode", modeText(menu.snapshot.status?.mode))
        },
    ]

    /// What the shutter does, by the board's photo/video switch (an information row).
    static func modeText(_ mode: String?) -> String {
        switch mode {
        case CaptureMode.video.rawValue?: return "video: the shutter starts and stops recording (the switch)"
        case CaptureMode.photo.rawValue?: return "photo: the shutter takes photos (the switch)"
        default: return "photo: the shutter takes photos (the board has no mode switch)"
        }
    }
}
