// One photo in the library: its stable identifier, its original file and its indexed metadata.

import PinholeCore
import PinholeImaging

/// A photo in the library, as indexed.
///
/// Values are snapshots: fetch again (or observe) to see later changes.
public struct Asset: Sendable, Codable, Hashable, Identifiable {
    /// Stable unique identifier (a UUID version 7 string, lowercase).
    public var id: String
    /// Path of the original, relative to the library directory (`originals/YYYY/MM/DD/<id>.jpg`).
    public var path: String
    /// When the photo was taken (EXIF capture time), or when it was added if it has none.
    public var created: WallTime
    /// When the photo entered the library.
    public var added: WallTime
    /// When the asset's record last changed (favorite, edit, deletion, …).
    public var modified: WallTime
    /// The appliance camera identifier that took it, if known.
    public var cameraID: String?
    /// Camera maker (EXIF Make).
    public var make: String?
    /// Camera model (EXIF Model).
    public var model: String?
    /// Stored pixel width of the original.
    public var pixelWidth: Int
    /// Stored pixel height of the original.
    public var pixelHeight: Int
    /// EXIF orientation of the original.
    public var orientation: Orientation
    /// Exposure time in seconds.
    public var exposureTime: Double?
    /// ISO sensitivity.
    public var iso: Int?
    /// Aperture.
    public var fNumber: Double?
    /// Focal length in millimetres.
    public var focalLength: Double?
    /// Lens position in dioptres.
    public var lensPosition: Double?
    /// Whether the flash fired.
    public var flashFired: Bool?
    /// Where it was taken, when known.
    public var gps: GPSFix?
    /// Size of the original file in bytes.
    public var fileSize: Int64
    /// Checksum of the original file: `crc32:` and eight hex digits (the same value `crc32(1)` and zlib compute).
    public var checksum: String
    /// Marked as favorite.
    public var favorite: Bool
    /// Hidden from All Photos and albums' default queries.
    public var hidden: Bool
    /// When it was moved to Recently Deleted; nil when it is not deleted.
    public var deleted: WallTime?
    /// Edit revision: 0 when the photo has no edit, increasing with each saved edit.
    public var editRevision: Int
    /// Whether the clock could be trusted when it was taken; nil when not recorded.
    public var clockTrust: ClockTrust? = nil
    /// How far `library redate` moved `created` from the original's EXIF date.
    public var dateShift: Duration = .zero
    /// From the shutter press to the start of the exposure (negative: before the press);
    /// nil when not recorded.
    public var pressToExposure: Duration? = nil
    /// For a press that woke the camera from standby: the time to its first usable frame.
    public var wakeCost: Duration? = nil
    /// Photo, video or Live Photo.
    public var mediaType: MediaType = .photo
    /// A clip's duration; nil for a photo.
    public var duration: Duration? = nil
    /// A clip's frames per second.
    public var frameRate: Double? = nil
    /// A clip's codec (`h264`).
    public var codec: String? = nil
    /// Where the trigger (or `record start`) falls inside a clip.
    public var triggerOffset: Duration? = nil

    /// The date the original's EXIF records (before any redate).
    public var originalCreated: WallTime { created.adding(.zero - dateShift) }

    /// Whether the photo has a saved (non-destructive) edit.
    public var isEdited: Bool { editRevision > 0 }

    /// Whether the photo is in Recently Deleted.
    public var isDeleted: Bool { deleted != nil }

    /// Stored pixel size of the original.
    public var pixelSize: PixelSize { PixelSize(width: pixelWidth, height: pixelHeight) }

    /// Size as displayed, after applying the orientation.
    public var displaySize: PixelSize {
        orientation.swapsDimensions ? PixelSize(width: pixelHeight, height: pixelWidth) : pixelSize
    }

    /// A short camera description: the camera identifier, else make and model, else "unknown".
    public var cameraName: String {
        if let cameraID, !cameraID.isEmpty { return cameraID }
        let parts = [make, model].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? "unknown" : parts.joined(separator: " ")
    }
}

extension Asset {
    /// Builds the record of a new original from its metadata.
    init(
        id: String, path: String, metadata: PhotoMetadata, added: WallTime, fileSize: Int64, checksum: String
    ) {
        self.id = id
        self.path = path
        self.created = metadata.captureTime ?? added
        self.added = added
        self.modified = added
        self.cameraID = metadata.cameraID
        self.make = metadata.make
        self.model = metadata.model
        self.pixelWidth = metadata.pixelWidth
        self.pixelHeight = metadata.pixelHeight
        self.orientation = metadata.orientation
        self.exposureTime = metadata.exposureTime
        self.iso = metadata.iso
        self.fNumber = metadata.fNumber
        self.focalLength = metadata.focalLength
        self.lensPosition = metadata.lensPosition
        self.flashFired = metadata.flashFired
        self.gps = metadata.gps
        self.fileSize = fileSize
        self.checksum = checksum
        self.favorite = false
        self.hidden = false
        self.deleted = nil
        self.editRevision = 0
        self.clockTrust = metadata.clockTrust
        self.dateShift = .zero
        self.pressToExposure = metadata.pressToExposure
        self.wakeCost = metadata.wakeCost
    }
}

/// What an asset is.
public enum MediaType: String, Sendable, Codable, Hashable, CaseIterable {
    /// A still photo.
    case photo
    /// A movie clip.
    case video
    /// A still paired with a clip.
    case live
}
