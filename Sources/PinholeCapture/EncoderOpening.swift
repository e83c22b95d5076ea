// An encoder opened on a thread of its own while the recording's lane goes on: photo mode's start.

import PinholeCore
import PinholeSystem

/// An encoder being opened beside the recording's lane (photo mode keeps none open: the first
/// recording also loads libav). The lane creates the clip's file and takes the first frames'
/// images meanwhile, and waits here only when it needs the encoder.
final class EncoderOpening: @unchecked Sendable {
    /// What the open gave, and the milliseconds it took where it ran.
    typealias Outcome = (encoder: Result<any ClipEncoder, VideoError>, milliseconds: Double)

    private let lock = ConditionLock()
    private var outcome: Outcome?

    /// Opens an encoder from `backend` (on the calling thread, the opener's), timed on `clock`,
    /// and hands it to whoever waits; returns the error, if any, for the loop.
    func open(
        _ backend: any VideoBackend, _ settings: ClipEncoderSettings, clock: @Sendable () -> Instant
    ) -> VideoError? {
        let start = clock()
        let result = Result { () throws(VideoError) -> any ClipEncoder in try backend.makeEncoder(settings) }
        let milliseconds = Double((clock() - start).nanoseconds) / 1_000_000
        lock.withLock {
            outcome = (result, milliseconds)
            lock.broadcast()
        }
        if case .failure(let error) = result { return error }
        return nil
    }

    /// Waits until the encoder is open (or failed to open) and returns it.
    func wait() -> Outcome {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let outcome { return outcome }
            lock.wait()
        }
    }
}
