// The recording's thread-side state: encoder, pre-roll ring and the open clip, touched only on its WorkLane.

import PinholeCore

/// Progress of the open clip, handed back to the loop after each frame.
public struct ClipProgress: Sendable, Hashable {
    /// Frames in the file.
    public var frames = 0
    /// Container bytes written.
    public var bytes: Int64 = 0
    /// Microseconds from the clip's first frame to the end of its last.
    public var durationMicroseconds: Int64 = 0
    /// Whether the clip reached its maximum duration (the loop then stops it).
    public var reachedLimit = false
    /// Why the clip's bytes could not be written (a full disk): the loop then closes it,
    /// keeping its complete fragments.
    public var failure: String?
    /// The sensor time (µs) of the clip's first frame, nil before it is in the file.
    public var firstFrameMicroseconds: Int64?
    /// Bytes in the pre-roll ring now, and the most it has held.
    public var ringBytes = 0
    /// The most bytes the pre-roll ring has held at once.
    public var ringPeakBytes = 0
    /// Times the ring's byte limit cut it below its span (see `PreRollRing.shortfalls`).
    public var ringShortfalls = 0
    /// Where the start latency went on the recording's lane (all 0 on virtual time).
    public var trace = StartTrace()
}

/// The lane's share of a clip's start latency, milliseconds each: what `record start` waits
/// for between the command and its first frame in the file.
public struct StartTrace: Sendable, Hashable {
    /// Creating the clip's file in the library.
    public var fileMilliseconds = 0.0
    /// Opening the encoder, wherever it ran (0 when it was open already: a ring, or video mode
    /// keeping it ready). Photo mode opens it beside the lane, loading libav the first time.
    public var encoderMilliseconds = 0.0
    /// How long the clip's start waited for the encoder on the lane: all of `encoderMilliseconds`
    /// when it opened there in series, the part not hidden behind the file and the first image
    /// when it opened beside the lane.
    public var encoderWaitMilliseconds = 0.0
    /// Opening the muxer and writing the MP4's header.
    public var writerMilliseconds = 0.0
    /// Taking the first frame's image from the camera (the simulated camera renders it here).
    public var imageMilliseconds = 0.0
    /// Encoding the first frame and writing it.
    public var encodeMilliseconds = 0.0
}

/// Encoder, ring and writer. Confined to the recording's lane: every method runs there, one at
/// a time, so it needs no lock.
final class VideoPipeline: @unchecked Sendable {
    /// A clip being written.
    struct OpenClip {
        /// Nil until the encoder is open (photo mode opens it beside the lane: `settle`).
        var writer: (any ClipWriter)?
        var recording: any ClipRecording
        var metadata: ClipMetadata
        var firstMicroseconds: Int64?
        var triggerMicroseconds: Int64
        var limitMicroseconds: Int64
        var progress = ClipProgress()
        var failure: VideoError?
    }

    /// Counts the bytes that reach the store's sink.
    final class CountingSink: ClipSink {
        let inner: any ClipSink
        var bytes: Int64 = 0
        init(_ inner: any ClipSink) { self.inner = inner }
        func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
            try inner.write(bytes)
            self.bytes += Int64(bytes.count)
        }
        func fragmentCompleted() throws(VideoError) { try inner.fragmentCompleted() }
    }

    let backend: any VideoBackend
    let settings: ClipEncoderSettings
    /// The lane's clock for the start trace (a fixed instant on virtual time).
    let clock: @Sendable () -> Instant
    private var encoder: (any ClipEncoder)?
    /// An encoder being opened beside the lane for the open clip (photo mode's start).
    private var opening: EncoderOpening?
    private(set) var ring: PreRollRing
    private var clip: OpenClip?
    private var sink: CountingSink?
    private var forceKeyframe = false

    init(
        backend: any VideoBackend, settings: ClipEncoderSettings, ring: PreRollRing,
        clock: @escaping @Sendable () -> Instant
    ) {
        self.backend = backend
        self.settings = settings
        self.ring = ring
        self.clock = clock
    }

    /// Milliseconds since `start` on the lane's clock.
    func milliseconds(since start: Instant) -> Double { Double((clock() - start).nanoseconds) / 1_000_000 }

    /// Encodes one frame (its image took `imageMilliseconds` to get); its packets go into the
    /// ring and, while a clip is open, the clip.
    func encode(
        _ image: RawImage, at microseconds: Int64, imageMilliseconds: Double = 0
    ) throws(VideoError) -> ClipProgress? {
        if clip != nil, clip?.writer == nil {
            // The clip waits for its encoder (opening beside the lane) and then its writer; when
            // either fails the loop closes the clip from its progress.
            guard clip?.failure == nil else { return progressWithRing() }
            do throws(VideoError) {
                try settle()
            } catch {
                clip?.failure = error
                clip?.progress.failure = "\(error)"
                return progressWithRing()
            }
        }
        let start = clock()  // after the wait for the encoder, which the trace counts apart
        let encoder = try openEncoder()
        let packets = try encoder.encode(
            image, presentationMicroseconds: microseconds, forceKeyframe: forceKeyframe && clip != nil)
        forceKeyframe = false
        let before = clip?.progress.frames
        deliver(packets)
        if before == 0, let after = clip?.progress.frames, after > 0 {
            clip?.progress.trace.imageMilliseconds = imageMilliseconds
            clip?.progress.trace.encodeMilliseconds = milliseconds(since: start)
        }
        return progressWithRing()
    }

    /// Opens the encoder now, if it is not open, so that a clip started later waits for no
    /// encoder (video mode keeps it ready).
    func prepareEncoder() throws(VideoError) { _ = try openEncoder() }

    /// Closes an encoder no clip uses (leaving video mode without a ring).
    func releaseEncoder() {
        guard clip == nil else { return }
        encoder = nil
    }

    /// The open clip's progress with the ring's size, nil when no clip is open.
    private func progressWithRing() -> ClipProgress? {
        guard var progress = clip?.progress else { return nil }
        progress.ringBytes = ring.byteCount
        progress.ringPeakBytes = ring.peakByteCount
        progress.ringShortfalls = ring.shortfalls
        return progress
    }

    /// Opens a clip writing from the last keyframe at or before `from` (pre-roll from the ring);
    /// with nothing in the ring that early, from the next frame (made a keyframe). Returns the
    /// clip's progress once the pre-roll is in it. With `opening` (photo mode: no encoder is
    /// open) the encoder is being opened beside the lane: the clip waits for it, and opens its
    /// writer, only at its first frame, so that the frame's image is taken meanwhile. When the
    /// encoder or the writer cannot be opened, the recording's file is discarded (it holds
    /// nothing yet).
    @discardableResult
    func open(
        recording: any ClipRecording, metadata: ClipMetadata, from: Int64, trigger: Int64,
        limitMicroseconds: Int64, fileMilliseconds: Double = 0, opening: EncoderOpening? = nil
    ) throws(VideoError) -> ClipProgress? {
        sink = CountingSink(recording)
        clip = OpenClip(
            writer: nil, recording: recording, metadata: metadata, triggerMicroseconds: trigger,
            limitMicroseconds: limitMicroseconds)
        clip?.progress.trace.fileMilliseconds = fileMilliseconds
        if let opening {
            guard encoder != nil else {
                self.opening = opening
                forceKeyframe = true
                return progressWithRing()
            }
            _ = opening.wait()  // one was open after all: the clip keeps it
        }
        do throws(VideoError) {
            try settle()
        } catch {
            clip = nil
            sink = nil
            recording.discard()
            throw error
        }
        let preRoll = ring.packets(from: from)
        if preRoll.isEmpty { forceKeyframe = true }
        // Already in the ring: into the clip only (appended again, the ring would hold them twice).
        deliver(preRoll, intoRing: false)
        return progressWithRing()
    }

    /// Opens the clip's writer once its encoder is open: at once, or after waiting for the
    /// encoder being opened beside the lane. Notes both in the start trace.
    private func settle() throws(VideoError) {
        guard let open = clip, open.writer == nil, let sink else { return }
        let aside = opening
        var start = clock()
        let encoder = try openEncoder()
        let waited = milliseconds(since: start)
        clip?.progress.trace.encoderWaitMilliseconds = waited
        clip?.progress.trace.encoderMilliseconds = aside?.wait().milliseconds ?? waited
        start = clock()
        clip?.writer = try backend.makeWriter(
            settings: settings, codecHeader: encoder.codecHeader, metadata: open.metadata, sink: sink)
        clip?.progress.trace.writerMilliseconds = milliseconds(since: start)
    }

    /// Closes the open clip: drains the encoder into it, writes the trailer, names and indexes it.
    /// The encoder is reopened at the next frame (the ring starts again). A clip still waiting
    /// for its encoder holds no frame: it is discarded once the encoder is open.
    func close(cutShort reason: String? = nil) -> Result<SavedClip, any Error> {
        guard var open = clip else { return .failure(VideoError.writer("no clip is open")) }
        if let opening {
            self.opening = nil
            if case .failure(let error) = opening.wait().encoder, open.failure == nil {
                open.failure = error
                clip?.failure = error
            }
        }
        if let encoder, open.failure == nil, open.writer != nil {
            do throws(VideoError) {
                deliver(try encoder.finish())
            } catch {
                clip?.failure = error
            }
        }
        encoder = nil
        ring.removeAll()
        open = clip ?? open
        clip = nil
        defer { sink = nil }
        let cut = reason ?? open.failure.map { "\($0)" }
        if let writer = open.writer {
            if open.failure == nil {
                do throws(VideoError) {
                    try writer.finish()
                } catch {
                    return .failure(error)
                }
            } else {
                writer.abort()
            }
        }
        guard open.progress.frames > 0 else {
            open.recording.discard()
            return .failure(open.failure ?? VideoError.writer("the clip holds no frame"))
        }
        let facts = ClipFacts(
            metadata: open.metadata, size: settings.size, fps: settings.fps, frameCount: open.progress.frames,
            durationMicroseconds: open.progress.durationMicroseconds,
            triggerMicroseconds: max(0, open.triggerMicroseconds - (open.firstMicroseconds ?? 0)),
            cutShort: cut)
        return Result { try open.recording.complete(facts) }
    }

    /// The ring's packets between two times (µs); see `PreRollRing.packets(from:through:)`.
    func ringWindow(from start: Int64, through end: Int64) -> [EncodedPacket] {
        ring.packets(from: start, through: end)
    }

    /// Keeps the ring's group holding `microseconds` and those after it (nil: trims as usual);
    /// see `PreRollRing.keepFrom`.
    func keepRing(from microseconds: Int64?) { ring.keepFrom = microseconds }

    /// The presentation time of the newest packet the encoder has handed out, nil before any.
    var newestMicroseconds: Int64? { ring.newestMicroseconds }

    /// Writes the ring's packets from the last keyframe at or before `start` to the last
    /// presented at or before `end` as a new MP4 into `sink` (a Live Photo's motion clip),
    /// rebased to start at 0. Returns its frame count and where `still` falls in it.
    func writeWindow(
        from start: Int64, through end: Int64, still: Int64, metadata: ClipMetadata, sink: any ClipSink
    ) throws(VideoError) -> MotionWindow {
        let packets = ring.packets(from: start, through: end)
        guard let encoder, let first = packets.first?.presentationMicroseconds else {
            throw .writer(
                "the pre-roll ring holds no frames from \(Double(end - start) / 1_000_000) s around the still"
            )
        }
        let writer = try backend.makeWriter(
            settings: settings, codecHeader: encoder.codecHeader, metadata: metadata, sink: sink)
        do throws(VideoError) {
            for packet in packets {
                var rebased = packet
                rebased.presentationMicroseconds -= first
                rebased.decodingMicroseconds -= first
                try writer.write(rebased)
            }
            try writer.finish()
        } catch {
            writer.abort()
            throw error
        }
        return MotionWindow(frameCount: packets.count, stillOffsetMicroseconds: still - first)
    }

    /// Whether a clip is open.
    var isOpen: Bool { clip != nil }

    private func openEncoder() throws(VideoError) -> any ClipEncoder {
        if let encoder { return encoder }
        let opened: any ClipEncoder
        if let opening {
            self.opening = nil
            opened = try opening.wait().encoder.get()
        } else {
            opened = try backend.makeEncoder(settings)
        }
        encoder = opened
        ring.removeAll()
        return opened
    }

    /// Packets into the ring (unless they come from it) and the open clip (rebased to start
    /// at 0); a write failure (a full disk) stops the clip's writing and is kept for `close`.
    private func deliver(_ packets: [EncodedPacket], intoRing: Bool = true) {
        for packet in packets {
            if intoRing { ring.append(packet) }
            guard var open = clip, open.failure == nil, let writer = open.writer else { continue }
            if open.firstMicroseconds == nil {
                guard packet.isKeyframe else { continue }
                open.firstMicroseconds = packet.presentationMicroseconds
                open.progress.firstFrameMicroseconds = packet.presentationMicroseconds
            }
            let first = open.firstMicroseconds ?? 0
            let offset = packet.presentationMicroseconds - first
            if offset >= open.limitMicroseconds {
                open.progress.reachedLimit = true
                clip = open
                continue
            }
            var rebased = packet
            rebased.presentationMicroseconds = offset
            rebased.decodingMicroseconds = packet.decodingMicroseconds - first
            do throws(VideoError) {
                try writer.write(rebased)
                open.progress.frames += 1
                open.progress.durationMicroseconds = offset + settings.frameMicroseconds
            } catch {
                open.failure = error
                open.progress.failure = "\(error)"
            }
            open.progress.bytes = sink?.bytes ?? 0
            clip = open
        }
    }
}
