// Named status patterns (ready, busy, saved, error codes, low storage, focus lock) over the board's outputs.

import PinholeCore

/// Error codes shown on the error LED as groups of short blinks.
public enum StatusErrorCode: Int, Sendable, CaseIterable, Codable {
    /// An output line could not be driven.
    case gpio = 1
    /// No camera is running.
    case noCamera = 2
    /// A capture failed.
    case captureFailed = 3
    /// Storage is full or a photo could not be written.
    case storage = 4
}

/// A status the appliance wants shown.
public enum StatusSignal: Sendable, Hashable {
    /// The camera is running and idle: status LED steady on.
    case ready
    /// No camera: status LED off, error code 2 repeating on the error LED.
    case noCamera
    /// A capture started (status LED blinks fast) or ended.
    case busy(Bool)
    /// A photo was saved: capture LED flash, a click on the buzzer.
    case saved
    /// Something failed: the code blinks on the error LED (twice), a long beep.
    case error(StatusErrorCode)
    /// Storage is low (status LED blinks slowly while idle) or no longer low.
    case lowStorage(Bool)
    /// Focus and exposure are locked by a half press (capture LED steady on) or released.
    case focusLocked(Bool)
    /// A clip is being recorded (capture LED one second on, one off) or ended.
    case recording(Bool)
    /// The mode switch stands at video (capture LED: a short blink every two seconds while
    /// nothing is recorded) or back at photo.
    case videoMode(Bool)
}

/// Shows status signals on the status, capture, error and buzzer outputs, whichever the
/// board has. Transient signals (saved, error) play over the steady ones and then give way.
public final class StatusIndicator {
    private let outputs: [OutputFunction: LEDController]
    private var cameraReady = false
    private var busyCount = 0
    /// Whether storage is low.
    public private(set) var lowStorage = false
    private var persistentError: StatusErrorCode?
    private var focusLocked = false
    /// Whether a clip is being recorded.
    public private(set) var recording = false
    /// Whether the mode switch stands at video.
    public private(set) var videoMode = false
    /// Whether the buzzer sounds (click on saved, alarm on error); the LEDs always show.
    public var buzzerFeedback = true

    /// A click on the buzzer when a photo is saved.
    public static let click = BlinkPattern(name: "click", on: .milliseconds(30), off: .zero, count: 1)
    /// Three beeps on the buzzer when something failed.
    public static let alarm = BlinkPattern(
        name: "alarm", on: .milliseconds(120), off: .milliseconds(120), count: 3)

    /// Creates an indicator over the board's output controllers.
    public init(outputs: [OutputFunction: LEDController]) {
        self.outputs = outputs
    }

    /// Shows a signal.
    public func show(_ signal: StatusSignal) {
        switch signal {
        case .ready:
            cameraReady = true
            if persistentError == .noCamera {
                persistentError = nil
                outputs[.error]?.setSteady(.off)
            }
        case .noCamera:
            cameraReady = false
            persistentError = .noCamera
            outputs[.error]?.setSteady(.pattern(.errorCode(StatusErrorCode.noCamera.rawValue, groups: nil)))
        case .busy(let busy):
            busyCount = max(0, busyCount + (busy ? 1 : -1))
        case .saved:
            outputs[.capture]?.play(.flash)
            if buzzerFeedback { outputs[.buzzer]?.play(Self.click) }
            return
        case .error(let code):
            outputs[.error]?.play(.errorCode(code.rawValue, groups: 2))
            if buzzerFeedback { outputs[.buzzer]?.play(Self.alarm) }
            return
        case .lowStorage(let low):
            lowStorage = low
        case .focusLocked(let locked):
            focusLocked = locked
            outputs[.capture]?.setSteady(captureState)
            return
        case .recording(let on):
            recording = on
            outputs[.capture]?.setSteady(captureState)
            return
        case .videoMode(let on):
            videoMode = on
            outputs[.capture]?.setSteady(captureState)
            return
        }
        refreshStatusLED()
    }

    /// What the status LED should show now.
    public var statusState: LEDState {
        if busyCount > 0 { return .pattern(.busy) }
        if !cameraReady { return .off }
        return lowStorage ? .pattern(.slow) : .on
    }

    /// What the capture LED shows between flashes: on while focus is locked, the recording
    /// pattern while recording, the video-mode blink in video mode, else off.
    public var captureState: LEDState {
        if focusLocked { return .on }
        if recording { return .pattern(.recording) }
        return videoMode ? .pattern(.videoMode) : .off
    }

    private func refreshStatusLED() {
        guard let led = outputs[.status], led.steady != statusState else { return }
        led.setSteady(statusState)
    }
}
