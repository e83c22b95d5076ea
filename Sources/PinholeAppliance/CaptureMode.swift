// What the shutter does: take photos, or start and stop recording (the board's mode switch).

/// The position of the board's photo/video mode switch.
public enum CaptureMode: String, Sendable, Codable {
    /// The shutter takes photos (and bursts when held). Also the mode of a board without a switch.
    case photo
    /// The shutter starts a clip, and its next press stops and saves it.
    case video
}
