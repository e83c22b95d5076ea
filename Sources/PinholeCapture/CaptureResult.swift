// What a capture produced, which frame it used, and what the engine reports on its own.

import PinholeCore
import PinholeImaging

/// How the kept frame relates to the shutter press.
public enum FrameSelection: String, Sendable, Codable {
    /// The frame whose exposure was under way at the press (zero shutter lag).
    case exposingAtPress = "exposing-at-press"
    /// No exposure was under way at the press: the next frame to start.
    case nextAfterPress = "next-after-press"
    /// The flash fired: the first frame exposed wholly under it once AE had settled.
    case flashLit = "flash-lit"
    /// Controls were changed before the press: the first frame whose metadata shows them in
    /// effect (not an older frame from the ring).
    case controlsInForce = "controls-in-force"
    /// Controls were changed before the press, but no frame confirmed them within the
    /// camera's delay and a dozen frames more: the next frame, unconfirmed.
    case controlsUnconfirmed = "controls-unconfirmed"
    /// The camera was in standby at the press: the first frame after it woke.
    case afterWake = "after-wake"
    /// A burst's shot after its first: the frame after the previous shot's (consecutive frames).
    case burst = "burst"
}

/// The outcome of one capture: the photo, the frame, and the settings really used.
public struct CaptureResult: Sendable {
    /// The stored photo.
    public var photo: SavedPhoto
    /// The kept frame's metadata (exposure time, gain, lens position really used).
    public var frame: FrameMetadata
    /// How the frame was chosen.
    public var selection: FrameSelection
    /// When the shutter was pressed (the first edge).
    public var pressedAt: Instant
    /// When the frame was selected.
    public var selectedAt: Instant
    /// When the photo was safely stored.
    public var savedAt: Instant
    /// The metadata written.
    public var metadata: PhotoMetadata
    /// The camera used.
    public var cameraID: String
    /// Whether the flash fired for this frame (nil: the camera has no flash).
    public var flashFired: Bool?
    /// The AF state when the frame was taken.
    public var afState: AutofocusState
    /// For a press that woke the camera from standby: the time to its first usable frame.
    public var wakeCost: Duration? = nil
    /// Exposure really used (the frame's).
    public var exposureTime: Duration { frame.exposureTime }
    /// Total gain really used (the frame's).
    public var gain: Double { frame.totalGain }
    /// Lens position really used (the frame's), in dioptres.
    public var lensPosition: Double? { frame.lensPosition }
    /// From the press to the start of the kept frame's exposure (negative: the exposure was
    /// already under way at the press, as zero shutter lag gives), in one time base.
    public var pressToExposure: Duration { frame.sensorTimestamp - pressedAt }

    /// The journal's line for this photo: "saved ID (exposing-at-press, pressed t+…, exposure
    /// began 0.4 ms before the press, saved 85 ms later)", with the wake cost when it woke the camera.
    public var journalText: String {
        let delay = Int((savedAt - pressedAt).milliseconds)
        let wake = wakeCost.map { ", woke the camera in \(Int($0.milliseconds)) ms" } ?? ""
        return
            "saved \(photo.id) (\(selection.rawValue), pressed \(pressedAt), exposure began \(PressLagText.relativeToPress(pressToExposure)), saved \(delay) ms later\(wake))"
    }
}

/// Things the capture engine reports on its own (outside any request).
public enum CaptureEngineEvent: Sendable {
    /// The camera sent no frame for `silence` and was stopped and started again.
    case cameraRestarted(camera: String, silence: Duration)
    /// Restarting the camera failed; the watchdog will try again.
    case restartFailed(camera: String, reason: String)
    /// A camera command missed its deadline, or answered after it.
    case camera(CameraSessionNotice)
    /// Focus changed on its own (e.g. a scene change returned it to continuous AF).
    case focusChanged(mode: AutofocusMode, reason: FocusChangeReason)
    /// A saved setting the camera cannot do was not restored; the text says which and what
    /// is used instead.
    case settingRefused(String)
}

/// Why focus changed without being asked.
public enum FocusChangeReason: String, Sendable {
    /// The scene changed: a locked point was released and continuous AF resumed.
    case sceneChanged = "scene changed"
}
