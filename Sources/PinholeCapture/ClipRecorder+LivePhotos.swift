// Live Photos: the pre-roll ring's packets around a still's exposure written as its motion clip.

import PinholeCore
import SystemPackage

/// A still's motion clip, kept.
public struct LiveMotion: Sendable, Hashable {
    /// The photo that is now a Live Photo.
    public var photoID: String
    /// The motion clip's file.
    public var file: FilePath
    /// Frames and where the still falls in them.
    public var window: MotionWindow
}

extension ClipRecorder {
    /// Seconds of motion before a Live Photo's still.
    public static let liveBeforeSeconds = 1.5
    /// Seconds of motion after a Live Photo's still.
    public static let liveAfterSeconds = 1.5
    /// How long after the window's end the recorder waits for the encoder's last packets.
    static let liveEncoderGrace = Duration.seconds(1)

    /// Whether the ring reaches back far enough for a Live Photo.
    public var keepsLivePhotos: Bool { ringSeconds >= Self.liveRingSeconds(settings) }

    /// The ring (in seconds) that Live Photos need with `settings`: the window, the group of
    /// pictures its first keyframe starts, and one more group, since the ring's byte limit
    /// (1.2 × bit rate) drops old groups early when keyframes run larger than the average.
    public static func liveRingSeconds(_ settings: VideoSettings) -> Double {
        liveBeforeSeconds + liveAfterSeconds + 2 * settings.keyframeSeconds
    }

    /// Keeps the ring's packets from `liveBeforeSeconds` before `pressedAt` (the sensor clock)
    /// until `releaseWindow` gets the returned start: the still is saved before `pairMotion`
    /// cuts its window from the ring, and a save slower than the ring's slack (a 12 MP JPEG on
    /// a loaded board) would otherwise find the window's start gone.
    public func holdWindow(pressedAt: Instant) -> Int64 {
        loop.preconditionInLoop("ClipRecorder.holdWindow")
        let start = pressedAt.nanoseconds / 1000 - Int64(Self.liveBeforeSeconds * 1_000_000)
        liveHolds.append(start)
        keepHeldWindows()
        return start
    }

    /// Lets the ring trim the window `holdWindow` kept (its still is paired, or failed).
    public func releaseWindow(_ start: Int64) {
        loop.preconditionInLoop("ClipRecorder.releaseWindow")
        if let index = liveHolds.firstIndex(of: start) { liveHolds.remove(at: index) }
        keepHeldWindows()
    }

    private func keepHeldWindows() {
        let pipeline = self.pipeline
        let keepFrom = liveHolds.min()
        loop.offload(on: lane, { pipeline.keepRing(from: keepFrom) }, then: { _ in })
    }

    /// Pairs the saved photo `photoID`, exposed at `exposure` (the sensor clock), with the
    /// ring's clip from `liveBeforeSeconds` before to `liveAfterSeconds` after it. Once the
    /// encoder has handed out the window's last frame (or a second after the window, whichever
    /// first), the packets are written as an MP4 and the store attaches it to the photo. A
    /// recording under way goes on: its packets pass through the same ring. The outcome goes
    /// to `completion` and as `.liveSaved`/`.liveFailed` to `onEvent`.
    public func pairMotion(
        photoID: String, exposure: Instant, metadata: ClipMetadata,
        completion: @escaping (Result<LiveMotion, any Error>) -> Void = { _ in }
    ) {
        loop.preconditionInLoop("ClipRecorder.pairMotion")
        let before = Int64(Self.liveBeforeSeconds * 1_000_000)
        let after = Int64(Self.liveAfterSeconds * 1_000_000)
        let still = exposure.nanoseconds / 1000
        let end = exposure + .microseconds(after)
        let frame = Duration.microseconds(Int64(1_000_000 / max(1, settings.fps)))
        let finish: (Result<LiveMotion, any Error>) -> Void = { [weak self] result in
            switch result {
            case .success(let motion):
                self?.onEvent?(
                    .liveSaved(photoID: photoID, file: motion.file, frames: motion.window.frameCount))
            case .failure(let error):
                self?.onEvent?(.liveFailed(photoID: photoID, message: "\(error)"))
            }
            completion(result)
        }
        guard keepsLivePhotos else {
            finish(
                .failure(
                    RecordingError.unavailable(
                        "Live Photos need \(Self.liveRingSeconds(settings)) s of pre-roll ring; it keeps \(ringSeconds) s"
                    )))
            return
        }
        let deadline = end + frame + Self.liveEncoderGrace
        func attempt() {
            let pipeline = self.pipeline
            let store = self.store
            let late = loop.now >= deadline
            loop.offload(
                on: lane,
                { () -> Result<LiveMotion, any Error>? in
                    // The encoder may hold the last frames a little: wait for them.
                    guard late || (pipeline.newestMicroseconds ?? .min) >= end.nanoseconds / 1000 else {
                        return nil
                    }
                    var window = MotionWindow(frameCount: 0, stillOffsetMicroseconds: 0)
                    return Result {
                        let file = try store.attachMotion(toPhoto: photoID) { (sink) throws(VideoError) in
                            window = try pipeline.writeWindow(
                                from: still - before, through: still + after, still: still,
                                metadata: metadata, sink: sink)
                            return window
                        }
                        return LiveMotion(photoID: photoID, file: file, window: window)
                    }
                },
                then: { [weak self] result in
                    guard let self else { return }
                    if let result {
                        finish(result)
                    } else {
                        self.loop.schedule(after: frame) { attempt() }
                    }
                })
        }
        loop.schedule(at: max(loop.now, end + frame)) { attempt() }
    }
}
