// The eight EXIF orientations and how they map pixels.

/// EXIF orientation (tag 0x0112): how stored pixels must be turned to display upright.
public enum Orientation: Int, Sendable, Codable, CaseIterable {
    /// Row 0 at top, column 0 at left.
    case up = 1
    /// Mirrored horizontally.
    case upMirrored = 2
    /// Rotated 180°.
    case down = 3
    /// Mirrored vertically.
    case downMirrored = 4
    /// Mirrored horizontally, then rotated 270° clockwise.
    case leftMirrored = 5
    /// Rotate 90° clockwise to display.
    case right = 6
    /// Mirrored horizontally, then rotated 90° clockwise.
    case rightMirrored = 7
    /// Rotate 270° clockwise (90° anticlockwise) to display.
    case left = 8

    /// The orientation for a camera mounted rotated clockwise by `degrees` (0, 90, 180, 270).
    public init(mountRotation degrees: Int) {
        switch ((degrees % 360) + 360) % 360 {
        case 90: self = .right
        case 180: self = .down
        case 270: self = .left
        default: self = .up
        }
    }

    /// Whether displaying swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
