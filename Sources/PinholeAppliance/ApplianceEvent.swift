// Events the appliance reports to its observers (the console, logs, tests).

import PinholeBoard
import PinholeCapture
import PinholeCore

/// Something that happened on the appliance.
public enum ApplianceEvent: Sendable {
    /// A photo was taken and safely stored.
    case saved(CaptureResult)
    /// A capture failed; the error says why and what to do (text only where it is written).
    case captureFailed(any Error)
    /// The running camera changed.
    case cameraChanged(CameraInfo)
    /// The torch was turned on or off.
    case torch(Bool)
    /// A button event (after debouncing).
    case button(ButtonFunction, ButtonEvent)
    /// A problem that needs attention.
    case problem(String)
    /// Focus changed on its own (e.g. back to continuous AF after a scene change).
    case focusChanged(mode: AutofocusMode, reason: FocusChangeReason)
    /// A recording started, was saved or failed.
    case recording(RecordingEvent)
    /// Unattended operation worth a log line: standby and wake, timelapse progress, triggers,
    /// storage policy.
    case notice(String)
}
