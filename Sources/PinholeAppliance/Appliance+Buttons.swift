// What the appliance does with debounced button events: the two-stage shutter, burst, chords, tilt,
// the record button and the mode switch.

import PinholeBoard
import PinholeCore
import PinholeImaging

extension Appliance {
    func buttonEvent(_ function: ButtonFunction, _ event: ButtonEvent) {
        if case .pressed = event { noteActivity(wakeFor: function.rawValue) }
        emit(.button(function, event))
        chords?.handle(function, event)
        if let chords, chords.suppresses(function) {
            // A chord holds this button: its holds and repeats are not acted on, and a burst
            // that was under way stops.
            switch event {
            case .held, .repeated:
                if function == .shutter { perform(shutter.stopBurst()) }
                return
            case .pressed, .released:
                break
            }
        }
        switch function {
        case .shutter:
            if captureMode == .video { videoShutter(event) } else { perform(shutter.fullPress(event)) }
        case .halfPress:
            perform(shutter.halfPress(event))
        case .switch:
            guard case .pressed = event else { return }
            do { try switchCamera() } catch { problem("camera switch failed: \(error)") }
        case .torch:
            guard case .pressed = event else { return }
            do { try setTorch(!torchOn) } catch { problem("\(error)") }
        case .record:
            guard case .pressed = event else { return }
            toggleRecording()
        case .mode:
            modeSwitched(event)
        case .tiltA, .tiltB:
            switch event {
            case .pressed: tilt?.set(function, closed: true)
            case .released: tilt?.set(function, closed: false)
            case .held, .repeated: break
            }
        }
    }

    func perform(_ actions: [TwoStageShutter.Action]) {
        for action in actions {
            switch action {
            case .lock:
                engine.beginHalfPress()
                indicator.show(.focusLocked(true))
            case .unlock:
                engine.endHalfPress()
                indicator.show(.focusLocked(false))
            case .capture(let at):
                capture(pressedAt: at)
            case .burst(let at, let shot):
                // Held past the hold time: every frame from then on, at the camera's frame rate,
                // until the shutter is let go (the shutter's repeats add nothing). Frames that
                // pass while storage is behind are counted and logged, not queued.
                if shot == 1 { captureBurst(count: nil, pressedAt: at) }
            case .burstEnded:
                stopBurst()
            }
        }
    }

    /// The EXIF orientation a photo taken now would carry.
    public var currentOrientation: Orientation { engine.orientation }
}
