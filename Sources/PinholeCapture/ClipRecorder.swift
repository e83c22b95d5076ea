// A recording session on the loop: start, stop and status; frames go to the encoder's own thread
// through a small queue, and the loop never waits for it.

import PinholeCore
import SystemPackage

/// Why a recording request was refused; nothing changed then.
public enum RecordingError: Error, CustomStringConvertible, Equatable {
    /// `record start` while recording.
    case alreadyRecording(id: Int)
    /// `record stop` while idle.
    case notRecording
    /// A bad `--max`, `--pre` or setting.
    case settings(VideoSettingsError)
    /// A pre-roll longer than the ring holds.
    case preRollTooLong(asked: Double, ring: Double)
    /// The camera cannot record now (no video stream, switching, in standby).
    case unavailable(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .alreadyRecording(let id): return "already recording (clip \(id)): `record stop` first"
        case .notRecording: return "not recording: `record start` first"
        case .settings(let error): return error.description
        case .preRollTooLong(let asked, let ring):
            return ring == 0
                ? "no pre-roll is kept: set pre_roll_s in [video] (up to \(Int(VideoSettings.longestPreRollSeconds)) s) to record --pre \(asked)"
                : "pre-roll \(asked) s is longer than the \(ring) s the ring keeps: set pre_roll_s in [video]"
        case .unavailable(let reason): return "cannot record: \(reason)"
        }
    }
}

/// A recording under way.
public struct RecordingStatus: Sendable, Hashable {
    /// The recording's number (the `event recording …` lines carry it).
    public var id: Int
    /// When `record start` was given.
    public var startedAt: Instant
    /// Frames, bytes and duration in the file so far.
    public var progress = ClipProgress()
    /// Frames the encoder could not take (its queue was full).
    public var droppedFrames = 0
    /// The longest the clip may run, seconds.
    public var maxSeconds: Double
    /// Pre-roll asked for, seconds.
    public var preRollSeconds: Double
    /// The encoder.
    public var encoder: VideoEncoderKind
    /// The time the clip is measured from: the trigger edge, or when `record start` was given.
    public var triggerAt: Instant
    /// When the loop learnt that the clip's first frame was in the file (the start latency's end).
    public var firstWrittenAt: Instant?
    /// When the loop learnt that the clip's file and encoder were open.
    public var openedAt: Instant?
    /// When the first frame after `record start` reached the recorder.
    public var firstArrivedAt: Instant?

    /// Milliseconds from `triggerAt` to the clip's first frame's exposure (negative: pre-roll
    /// before it), nil before a frame is in the file.
    public var firstFrameMilliseconds: Double? {
        progress.firstFrameMicroseconds.map { Double($0 - triggerAt.nanoseconds / 1000) / 1000 }
    }

    /// Milliseconds from `record start` to the loop learning that the first frame was in the file.
    public var startLatencyMilliseconds: Double? {
        firstWrittenAt.map { Double(($0 - startedAt).nanoseconds) / 1_000_000 }
    }
}

/// What a trigger did to recording.
public enum TriggerClipOutcome: Sendable, Hashable {
    /// A trigger clip started.
    case started(id: Int)
    /// The trigger clip under way now ends at `until`.
    case extended(id: Int, until: Instant)
    /// A recording started by `record start` runs on; the trigger did not change it.
    case alreadyRecording(id: Int)
}

/// What happened to a recording, for line mode (`event recording …`) and the LEDs.
public enum RecordingEvent: Sendable, Hashable {
    /// The clip's file is open; frames go in.
    case started(id: Int)
    /// The clip is named and in the library; `note` says why it ended early, when it did.
    case saved(id: Int, clip: SavedClip, note: String?)
    /// The recording could not be kept.
    case failed(id: Int, message: String)
    /// The photo `photoID` is a Live Photo: its motion clip is `file`, `frames` long.
    case liveSaved(photoID: String, file: FilePath, frames: Int)
    /// The photo `photoID` stays a still: why its motion clip could not be kept.
    case liveFailed(photoID: String, message: String)
}

/// Records clips from the camera's video stream. Loop-confined; the encoder and writer run on
/// the recorder's own `WorkLane`.
public final class ClipRecorder {
    /// The loop it runs on.
    public let loop: EventLoop
    /// The settings it records with.
    public let settings: VideoSettings
    /// The encoder and why.
    public let pick: EncoderPick
    /// Seconds of pre-roll the ring keeps (0: the encoder runs only while recording).
    public let ringSeconds: Double
    /// Frames that may wait for the encoder; more are dropped (and counted), never waited for.
    public var queueLimit: Int { slots.limit }
    /// What the encoder opens with (with a ring: keyframes and rate capped so that it fits).
    public let encoderSettings: ClipEncoderSettings
    /// What happened to each recording.
    public var onEvent: ((RecordingEvent) -> Void)?

    let lane = WorkLane()
    /// Opens the encoder beside `lane` when a clip starts with none open (photo mode).
    let opener = WorkLane()
    let backend: any VideoBackend
    let pipeline: VideoPipeline
    let store: any ClipStore
    /// Frames on their way through the lane: taken here, freed by the lane as it finishes each.
    let slots: FrameSlots
    private var current: RecordingStatus?
    private var stopping = false
    private var nextID = 1
    /// The starts (µs) of the Live Photo windows waiting for their still's save (`holdWindow`).
    var liveHolds: [Int64] = []
    /// The clip being started: whether its file and its encoder are open (`.started` follows both).
    private var starting: (id: Int, fileOpen: Bool, encoderOpen: Bool)?
    /// A trigger clip's end (its last trigger edge + post time) and the timer that stops it.
    private var triggerEnd: (at: Instant, timer: TimerID)?

    /// Creates a recorder. `ringSeconds` > 0 keeps the encoder running for pre-roll.
    public init(
        loop: EventLoop, backend: any VideoBackend, store: any ClipStore, settings: VideoSettings,
        pick: EncoderPick, ringSeconds: Double = 0, queueLimit: Int = 3
    ) {
        self.loop = loop
        self.settings = settings
        self.pick = pick
        self.ringSeconds = ringSeconds
        slots = FrameSlots(limit: queueLimit)
        self.store = store
        self.backend = backend
        let encoderSettings = settings.encoderSettings(pick.kind, ringSeconds: ringSeconds)
        let ring = PreRollRing(
            spanMicroseconds: Int64(ringSeconds * 1_000_000),
            byteLimit: PreRollRing.byteLimit(bitRate: encoderSettings.bitRate, seconds: ringSeconds))
        self.encoderSettings = encoderSettings
        // The start trace's clock: the monotonic clock, or a fixed instant on virtual time
        // (where lane work takes no time).
        let virtualClock: @Sendable () -> Instant = { Instant.zero }
        let realClock: @Sendable () -> Instant = { monotonicNow() }
        let clock = loop.isVirtual ? virtualClock : realClock
        pipeline = VideoPipeline(backend: backend, settings: encoderSettings, ring: ring, clock: clock)
    }

    /// Whether the encoder is kept open between clips (video mode): `record start` then waits
    /// for no encoder to open, at the cost of its memory while idle (libx264 about 45–56 MB
    /// at 1080p). With a ring the encoder runs anyway.
    public private(set) var keepsEncoderReady = false

    /// Keeps the encoder open between clips (`true`, video mode) or lets it go (`false`).
    public func keepEncoderReady(_ ready: Bool) {
        loop.preconditionInLoop("ClipRecorder.keepEncoderReady")
        keepsEncoderReady = ready
        guard current == nil, ringSeconds == 0 else { return }
        prepareOrRelease()
    }

    /// Opens the encoder on the lane when it is to be kept ready, else closes an idle one.
    private func prepareOrRelease() {
        let pipeline = self.pipeline
        let ready = keepsEncoderReady
        loop.offload(
            on: lane,
            { () -> String? in
                guard ready else {
                    pipeline.releaseEncoder()
                    return nil
                }
                do throws(VideoError) {
                    try pipeline.prepareEncoder()
                    return nil
                } catch {
                    return "\(error)"
                }
            },
            then: { _ in })
    }

    /// The recording under way, nil when idle.
    public var status: RecordingStatus? { current }

    /// Whether a recording is under way (or being closed).
    public var isRecording: Bool { current != nil }

    /// The camera's video stream this recorder needs.
    public var videoStream: VideoStreamRequest { VideoStreamRequest(size: settings.size, fps: settings.fps) }

    /// Hands a frame to the encoder's thread when recording (or keeping pre-roll). With
    /// `queueLimit` frames already on the lane (waiting or being encoded), the frame is dropped
    /// and counted instead. The lane frees a frame's place as soon as it has finished it, before
    /// the loop runs the frame's completion.
    public func frameArrived(_ frame: any CameraFrame) {
        loop.preconditionInLoop("ClipRecorder.frameArrived")
        guard current != nil || ringSeconds > 0 else { return }
        guard slots.take() else {
            current?.droppedFrames += 1
            return
        }
        if current != nil, current?.firstArrivedAt == nil { current?.firstArrivedAt = loop.now }
        let pipeline = self.pipeline
        let slots = self.slots
        let kept = frame.keep()
        let microseconds = frame.metadata.sensorTimestamp.nanoseconds / 1000
        loop.offload(
            on: lane,
            {
                defer { slots.free() }
                return Result { () throws(VideoError) -> ClipProgress? in
                    let start = pipeline.clock()
                    let image: RawImage?
                    do {
                        image = try frame.videoImage()
                    } catch {
                        throw .badFrame("the camera's video stream failed: \(error)")
                    }
                    guard let image else { throw .badFrame("the camera delivers no video stream") }
                    return try pipeline.encode(
                        image, at: microseconds, imageMilliseconds: pipeline.milliseconds(since: start))
                }
            },
            then: { [weak self] result in
                kept()
                guard let self else { return }
                switch result {
                case .success(let progress?):
                    guard !self.stopping, self.current != nil else { return }
                    self.noteProgress(progress)
                    if let failure = progress.failure {
                        self.finish(cutShort: failure) { _ in }
                    } else if progress.reachedLimit {
                        self.finish(cutShort: nil) { _ in }
                    }
                case .success(nil):
                    break
                case .failure(let error):
                    if self.current != nil, !self.stopping { self.finish(cutShort: "\(error)") { _ in } }
                }
            })
    }

    /// Takes the clip's progress from the lane; the first time it holds a frame is the end of
    /// the start latency.
    private func noteProgress(_ progress: ClipProgress) {
        current?.progress = progress
        if progress.frames > 0, current?.firstWrittenAt == nil { current?.firstWrittenAt = loop.now }
    }

    /// The pre-roll ring's packets from the last keyframe at or before `start` to the last
    /// presented at or before `end` (for a Live Photo's clip), read on the recorder's lane and
    /// handed to `completion` on the loop; empty when the ring does not reach back that far.
    public func ringWindow(
        from start: Instant, through end: Instant, completion: @escaping ([EncodedPacket]) -> Void
    ) {
        loop.preconditionInLoop("ClipRecorder.ringWindow")
        let pipeline = self.pipeline
        let (from, through) = (start.nanoseconds / 1000, end.nanoseconds / 1000)
        loop.offload(on: lane, { pipeline.ringWindow(from: from, through: through) }, then: completion)
    }

    /// Starts a clip now, with up to `preSeconds` before now from the ring and at most
    /// `maxSeconds` long (default: `max_duration_s`). Returns the recording's number; the
    /// `.started` event follows once its file is open.
    @discardableResult
    public func start(
        maxSeconds: Double? = nil, preSeconds: Double = 0, triggerAt: Instant? = nil, metadata: ClipMetadata
    ) throws(RecordingError) -> Int {
        loop.preconditionInLoop("ClipRecorder.start")
        if let current { throw .alreadyRecording(id: current.id) }
        let limit = maxSeconds ?? settings.maxDurationSeconds
        guard limit.isFinite, limit >= 1, limit <= VideoSettings.longestClipSeconds else {
            throw .settings(.badMaxDuration(limit))
        }
        guard preSeconds.isFinite, preSeconds >= 0, preSeconds <= VideoSettings.longestPreRollSeconds else {
            throw .settings(.badPreRoll(preSeconds))
        }
        guard preSeconds <= ringSeconds else { throw .preRollTooLong(asked: preSeconds, ring: ringSeconds) }
        let id = nextID
        nextID += 1
        let triggerInstant = min(triggerAt ?? loop.now, loop.now)
        current = RecordingStatus(
            id: id, startedAt: loop.now, maxSeconds: limit, preRollSeconds: preSeconds, encoder: pick.kind,
            triggerAt: triggerInstant)
        let trigger = triggerInstant.nanoseconds / 1000
        let from = trigger - Int64(preSeconds * 1_000_000)
        let limitMicroseconds = Int64(limit * 1_000_000)
        let wall = metadata.creationTime
        let store = self.store
        let pipeline = self.pipeline
        // Photo mode keeps no encoder open: it opens (loading libav the first time) beside the
        // lane, which meanwhile creates the clip's file and takes the first frame's image.
        let opening = ringSeconds == 0 && !keepsEncoderReady ? EncoderOpening() : nil
        starting = (id, false, opening == nil)
        if let opening { openEncoder(opening, for: id) }
        loop.offload(
            on: lane,
            {
                Result {
                    let start = pipeline.clock()
                    let recording: any ClipRecording
                    do {
                        recording = try store.beginClip(startedAt: wall)
                    } catch {
                        _ = opening?.wait()  // the encoder opened for it goes too
                        throw error
                    }
                    return try pipeline.open(
                        recording: recording, metadata: metadata, from: from, trigger: trigger,
                        limitMicroseconds: limitMicroseconds,
                        fileMilliseconds: pipeline.milliseconds(since: start), opening: opening)
                }
            },
            then: { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let progress):
                    if let progress, self.current?.id == id { self.noteProgress(progress) }
                    self.startPartOpened(id: id, file: true)
                case .failure(let error):
                    if self.current?.id == id { self.current = nil }
                    if self.starting?.id == id { self.starting = nil }
                    self.onEvent?(.failed(id: id, message: "\(error)"))
                }
            })
        return id
    }

    /// Opens the encoder for clip `id` on the opener's thread; the lane takes it from `opening`.
    /// An encoder that cannot be opened ends the clip (its file is discarded).
    private func openEncoder(_ opening: EncoderOpening, for id: Int) {
        let (backend, settings, clock) = (self.backend, encoderSettings, pipeline.clock)
        loop.offload(
            on: opener, { opening.open(backend, settings, clock: clock) },
            then: { [weak self] error in
                guard let self else { return }
                guard let error else { return self.startPartOpened(id: id, encoder: true) }
                if self.starting?.id == id { self.starting = nil }
                if self.current?.id == id, !self.stopping { self.finish(cutShort: "\(error)") { _ in } }
            })
    }

    /// Notes that clip `id`'s file or encoder is open; with both, the clip has started.
    private func startPartOpened(id: Int, file: Bool = false, encoder: Bool = false) {
        guard var parts = starting, parts.id == id else { return }
        parts.fileOpen = parts.fileOpen || file
        parts.encoderOpen = parts.encoderOpen || encoder
        starting = parts
        guard parts.fileOpen, parts.encoderOpen else { return }
        starting = nil
        if current?.id == id { current?.openedAt = loop.now }
        onEvent?(.started(id: id))
    }

    /// A trigger edge at `edge`: starts a clip from `preSeconds` before it that runs until
    /// `postSeconds` after it, or, while a trigger clip runs, moves its end to `postSeconds`
    /// after this edge (re-triggerable; the clip still ends at its maximum duration). A
    /// recording started by `record start` runs on untouched.
    public func trigger(
        at edge: Instant, preSeconds: Double, postSeconds: Double, metadata: ClipMetadata
    ) throws(RecordingError) -> TriggerClipOutcome {
        loop.preconditionInLoop("ClipRecorder.trigger")
        guard postSeconds.isFinite, postSeconds >= 0, postSeconds <= VideoSettings.longestClipSeconds else {
            throw .settings(.badMaxDuration(postSeconds))
        }
        let end = edge + .microseconds(Int64(postSeconds * 1_000_000))
        if let current {
            guard let running = triggerEnd, !stopping else { return .alreadyRecording(id: current.id) }
            guard end > running.at else { return .extended(id: current.id, until: running.at) }
            loop.cancel(running.timer)
            triggerEnd = (end, scheduleTriggerStop(at: end, id: current.id))
            return .extended(id: current.id, until: end)
        }
        let id = try start(preSeconds: preSeconds, triggerAt: edge, metadata: metadata)
        triggerEnd = (end, scheduleTriggerStop(at: end, id: id))
        return .started(id: id)
    }

    /// Stops the clip one frame period after `end`, so that the frame exposing at `end` is in it.
    private func scheduleTriggerStop(at end: Instant, id: Int) -> TimerID {
        let frame = Duration.microseconds(Int64(1_000_000 / max(1, settings.fps)))
        return loop.schedule(at: max(loop.now, end + frame)) { [weak self] in
            guard let self, self.current?.id == id, !self.stopping else { return }
            self.triggerEnd = nil
            self.finish(cutShort: nil) { _ in }
        }
    }

    /// Stops the recording: the clip is closed, named and indexed; `completion` gets it.
    public func stop(
        cutShort reason: String? = nil, completion: @escaping (Result<SavedClip, any Error>) -> Void
    ) throws(RecordingError) {
        loop.preconditionInLoop("ClipRecorder.stop")
        guard current != nil, !stopping else { throw .notRecording }
        finish(cutShort: reason, completion: completion)
    }

    private func finish(
        cutShort reason: String?, completion: @escaping (Result<SavedClip, any Error>) -> Void
    ) {
        guard let recording = current else { return }
        stopping = true
        if let running = triggerEnd {
            loop.cancel(running.timer)
            triggerEnd = nil
        }
        let pipeline = self.pipeline
        loop.offload(
            on: lane,
            { pipeline.isOpen ? pipeline.close(cutShort: reason) : .failure(RecordingError.notRecording) },
            then: { [weak self] result in
                guard let self else { return }
                self.current = nil
                self.stopping = false
                if self.starting?.id == recording.id { self.starting = nil }  // it never started
                // The clip drained the encoder: video mode opens the next one now.
                if self.keepsEncoderReady, self.ringSeconds == 0 { self.prepareOrRelease() }
                switch result {
                case .success(let clip):
                    let note =
                        reason
                        ?? (recording.droppedFrames > 0 ? "\(recording.droppedFrames) frames dropped" : nil)
                    self.onEvent?(.saved(id: recording.id, clip: clip, note: note))
                case .failure(let error):
                    self.onEvent?(.failed(id: recording.id, message: "\(error)"))
                }
                completion(result)
            })
    }
}
