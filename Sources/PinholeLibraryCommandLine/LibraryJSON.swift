// JSON forms of assets, albums and reports for `library … --json`.

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import PinholeCore
import PinholeLibrary

/// The JSON object of one asset, as `library list --json` and `show --json` print it.
struct AssetJSON: Encodable {
    var id: String
    var path: String
    var file: String
    var created: String
    var added: String
    var modified: String
    var camera: String
    var cameraID: String?
    var make: String?
    var model: String?
    var width: Int
    var height: Int
    var orientation: Int
    var exposureTime: Double?
    var iso: Int?
    var fNumber: Double?
    var focalLength: Double?
    var lensPosition: Double?
    var flashFired: Bool?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var fileSize: Int64
    var checksum: String
    var favorite: Bool
    var hidden: Bool
    var deleted: String?
    var edited: Bool
    var editRevision: Int
    var clockTrust: String?
    var dateShiftSeconds: Double
    var originalCreated: String?
    /// Milliseconds from the press to the start of the exposure (negative: before the press).
    var pressToExposureMs: Double?
    /// Milliseconds from waking the camera to its first usable frame (photos taken after-wake).
    var wakeCostMs: Double?
    /// `photo`, `video` or `live`.
    var mediaType: String
    /// A clip's duration in seconds.
    var durationSeconds: Double?
    /// A clip's frames per second.
    var frameRate: Double?
    /// A clip's codec (`h264`).
    var codec: String?
    /// Where a clip's trigger falls, seconds from its start.
    var triggerSeconds: Double?

    init(_ asset: Asset, file: String) {
        id = asset.id
        path = asset.path
        self.file = file
        created = asset.created.iso8601
        added = asset.added.iso8601
        modified = asset.modified.iso8601
        camera = asset.cameraName
        cameraID = asset.cameraID
        make = asset.make
        model = asset.model
        width = asset.pixelWidth
        height = asset.pixelHeight
        orientation = asset.orientation.rawValue
        exposureTime = asset.exposureTime
        iso = asset.iso
        fNumber = asset.fNumber
        focalLength = asset.focalLength
        lensPosition = asset.lensPosition
        flashFired = asset.flashFired
        latitude = asset.gps?.latitude
        longitude = asset.gps?.longitude
        altitude = asset.gps?.altitude
        fileSize = asset.fileSize
        checksum = asset.checksum
        favorite = asset.favorite
        hidden = asset.hidden
        deleted = asset.deleted?.iso8601
        edited = asset.isEdited
        editRevision = asset.editRevision
        clockTrust = asset.clockTrust?.rawValue
        dateShiftSeconds = Double(asset.dateShift.nanoseconds) / 1e9
        originalCreated = asset.dateShift == .zero ? nil : asset.originalCreated.iso8601
        pressToExposureMs = asset.pressToExposure?.milliseconds
        wakeCostMs = asset.wakeCost?.milliseconds
        mediaType = asset.mediaType.rawValue
        durationSeconds = asset.duration.map(\.seconds)
        frameRate = asset.frameRate
        codec = asset.codec
        triggerSeconds = asset.triggerOffset.map(\.seconds)
    }
}

/// Encoding helpers for command output.
enum LibraryJSON {
    /// One-line JSON with sorted keys.
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw LibraryError.invalidRequest("could not encode the answer as JSON: \(error)")
        }
    }
}
