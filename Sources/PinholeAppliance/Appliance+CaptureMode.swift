// The photo/video mode switch: in video mode the shutter starts and stops recording.

import PinholeBoard
import PinholeCore

extension Appliance {
    /// The mode switch's position: video while it is closed, photo while it is open or when
    /// the board has none (`[buttons.mode]`).
    public var captureMode: CaptureMode {
        board.buttons[.mode] != nil && buttons.isPressed(.mode) ? .video : .photo
    }

    /// The shutter in video mode: a press starts a clip or stops the one under way; holding it
    /// bursts nothing. The release still reaches the two-stage shutter, so that a half press
    /// lock and a burst begun in photo mode end as they would there.
    func videoShutter(_ event: ButtonEvent) {
        switch event {
        case .pressed: toggleRecording()
        case .released: perform(shutter.fullPress(event))
        case .held, .repeated: break
        }
    }

    /// The mode switch moved: said on the console and shown on the capture LED (a short blink
    /// every two seconds in video mode); video mode keeps the encoder open, so that a clip
    /// starts without waiting for it; leaving video mode stops the recording under way and
    /// saves it (the shutter could no longer stop it) and lets the encoder go.
    func modeSwitched(_ event: ButtonEvent) {
        switch event {
        case .pressed:
            indicator.show(.videoMode(true))
            recorder?.keepEncoderReady(true)
            emit(.notice("mode video: the shutter starts and stops recording"))
        case .released:
            indicator.show(.videoMode(false))
            recorder?.keepEncoderReady(false)
            emit(.notice("mode photo: the shutter takes photos"))
            guard let recorder, recorder.isRecording else { return }
            do { try recorder.stop { _ in } } catch { problem("mode switch: \(error)") }
        case .held, .repeated:
            break
        }
    }
}
