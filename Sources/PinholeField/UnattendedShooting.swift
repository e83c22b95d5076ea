// What the timelapse and the trigger inputs need of the appliance: a narrow seam, held weakly.

import PinholeCapture
import PinholeCore

/// The part of the appliance that a controller shooting on its own (timelapse slots, trigger
/// inputs) uses: the loop and the capture engine, a wake-up ahead of a shot, the normal capture
/// path, filing into an album, and the log. The appliance owns those controllers; they hold it
/// through this protocol, weakly, so that no cycle keeps it alive.
public protocol UnattendedShooting: AnyObject {
    /// The event loop everything runs on.
    var loop: EventLoop { get }
    /// The capture engine (focus before a slot, a timelapse's locked exposure).
    var engine: CaptureEngine { get }
    /// Where saved photos can be put into albums (nil: the store keeps no albums).
    var albumFiling: (any AlbumFiling)? { get }
    /// Wakes the camera from standby and counts as use.
    func noteActivity(wakeFor reason: String)
    /// Takes a photo of the frame exposing at `pressedAt` through the normal capture path.
    func capture(pressedAt: Instant?, completion: ((Result<CaptureResult, Error>) -> Void)?)
    /// Starts a trigger clip from `preSeconds` before `edge` to `postSeconds` after it, or
    /// extends the one under way (`ClipRecorder.trigger`).
    func triggerClip(at edge: Instant, preSeconds: Double, postSeconds: Double) throws(RecordingError)
        -> TriggerClipOutcome
    /// Records a problem for `log` and the status.
    func problem(_ message: String)
    /// Reports something worth a log line.
    func notice(_ message: String)
}
