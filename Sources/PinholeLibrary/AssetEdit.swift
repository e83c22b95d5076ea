// Non-destructive edits: the adjustment recipe and the rendered result of an edited photo.

import PinholeCore

/// The recipe of an edit, opaque to the library: who wrote it (format identifier and version)
/// and its data. An editor that does not understand a format can still revert the edit.
public struct AdjustmentData: Sendable, Codable, Hashable {
    /// Identifies the editor and recipe format, e.g. `org.pinhole.adjustments`.
    public var formatIdentifier: String
    /// Version of the recipe format, e.g. `1`.
    public var formatVersion: String
    /// The recipe.
    public var data: [UInt8]

    /// Creates adjustment data.
    public init(formatIdentifier: String, formatVersion: String, data: [UInt8]) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }
}

/// The saved edit of a photo: its recipe and its rendered JPEG (the original is untouched).
public struct AssetEdit: Sendable, Hashable {
    /// The edited photo.
    public var assetID: String
    /// Revision, from 1, increasing with every saved edit of this photo.
    public var revision: Int
    /// The recipe.
    public var adjustment: AdjustmentData
    /// The rendered JPEG, relative to the library directory (upright: orientation applied).
    public var renderPath: String
    /// Pixel size of the rendered JPEG.
    public var renderSize: PixelSize
    /// When the edit was saved.
    public var updated: WallTime
}
