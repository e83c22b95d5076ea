// What the capture engine asks of its owner: the flash output, the body's tilt, extra metadata, events.

import PinholeCore
import PinholeImaging

/// The capture engine's owner (the appliance). Every method has a default, so an engine
/// without a delegate has no flash, an upright body and reports nothing.
public protocol CaptureEngineDelegate: AnyObject {
    /// Whether an output can light the current camera's scene as a flash (the torch LED).
    func captureEngineHasFlashOutput(_ engine: CaptureEngine) -> Bool
    /// Lights or darkens the flash; when darkened, the torch returns to what the user set.
    func captureEngine(_ engine: CaptureEngine, setFlash lit: Bool)
    /// How far the camera body is turned clockwise now (0, 90, 180, 270), from a tilt sensor.
    func captureEngineBodyRotation(_ engine: CaptureEngine) -> Int
    /// Adds what the engine does not know to a photo's metadata (location, …) just before
    /// the photo is encoded.
    func captureEngine(_ engine: CaptureEngine, complete metadata: inout PhotoMetadata)
    /// Something happened on its own: a restart, a focus change.
    func captureEngine(_ engine: CaptureEngine, report event: CaptureEngineEvent)
    /// A setting that is saved changed: store `settings` (they are restored at the next start).
    func captureEngine(_ engine: CaptureEngine, settingsChanged settings: SavedSettings)
}

extension CaptureEngineDelegate {
    /// No flash output.
    public func captureEngineHasFlashOutput(_ engine: CaptureEngine) -> Bool { false }
    /// Nothing to light.
    public func captureEngine(_ engine: CaptureEngine, setFlash lit: Bool) {}
    /// Upright.
    public func captureEngineBodyRotation(_ engine: CaptureEngine) -> Int { 0 }
    /// Nothing to add.
    public func captureEngine(_ engine: CaptureEngine, complete metadata: inout PhotoMetadata) {}
    /// Nobody listens.
    public func captureEngine(_ engine: CaptureEngine, report event: CaptureEngineEvent) {}
    /// Nothing is saved.
    public func captureEngine(_ engine: CaptureEngine, settingsChanged settings: SavedSettings) {}
}
