// The recording under way as `status` reports it: clip number, elapsed time, size, frames, drops.

import PinholeCapture
import PinholeCore

/// A recording under way, for `status --json` and the menu's status line.
public struct RecordingSummary: Codable, Sendable, Hashable {
    /// The recording's number.
    public var id: Int
    /// Seconds since `record start` (or the trigger).
    public var elapsedSeconds: Double
    /// Bytes in the file so far.
    public var bytes: Int64
    /// Frames in the file so far.
    public var frames: Int
    /// Frames the encoder could not take.
    public var dropped: Int

    /// The summary of `status` at `now`.
    public init(_ status: RecordingStatus, now: Instant) {
        id = status.id
        elapsedSeconds = max(0, (now - status.startedAt).seconds)
        bytes = status.progress.bytes
        frames = status.progress.frames
        dropped = status.droppedFrames
    }

    /// `REC 0:12 3.4M`: elapsed minutes and seconds, and the file's size.
    public func line(bytes format: (Int64) -> String) -> String {
        let whole = Int(elapsedSeconds)
        let seconds = whole % 60 < 10 ? "0\(whole % 60)" : "\(whole % 60)"
        return "REC \(whole / 60):\(seconds) \(format(bytes))"
    }
}
