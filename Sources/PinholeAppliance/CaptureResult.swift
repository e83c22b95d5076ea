// What a capture produced, and which frame it used.

import PinholeCore
import PinholeImaging

/// How the kept frame relates to the shutter press.
public enum FrameSelection: String, Sendable, Codable {
    /// The frame whose exposure was under way at the press (zero shutter lag).
    case exposingAtPress = "exposing-at-press"
    /// No exposure was under way at the press: the next frame to start.
    case nextAfterPress = "next-after-press"
}

/// The outcome of one capture: the photo, the frame, and the settings really used.
public struct CaptureResult: Sendable {
    /// The stored photo.
    public var photo: SavedPhoto
    /// The kept frame's metadata.
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
}
