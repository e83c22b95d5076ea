// Non-destructive edit recipe: exposure, contrast and vignette (rendered by EditRenderer).

import PinholeCore

/// The adjustments of an edit, stored by the library as its recipe (Codable).
public struct Adjustments: Sendable, Hashable, Codable {
    /// Recipe format identifier, stored with the edit.
    public static let formatIdentifier = "org.pinhole.adjustments"
    /// Recipe format version.
    public static let formatVersion = "1"

    /// Exposure change in stops (−4…4), applied in linear light.
    public var exposure: Double
    /// Contrast (−1…1): 0 leaves the image alone, 1 doubles the slope around mid-grey.
    public var contrast: Double
    /// Vignette strength (0…1): how much the corners are darkened.
    public var vignette: Double

    /// Creates adjustments; values are clamped to their ranges.
    public init(exposure: Double = 0, contrast: Double = 0, vignette: Double = 0) {
        self.exposure = min(4, max(-4, exposure.isFinite ? exposure : 0))
        self.contrast = min(1, max(-1, contrast.isFinite ? contrast : 0))
        self.vignette = min(1, max(0, vignette.isFinite ? vignette : 0))
    }

    /// Whether rendering changes nothing.
    public var isIdentity: Bool { exposure == 0 && contrast == 0 && vignette == 0 }
}
