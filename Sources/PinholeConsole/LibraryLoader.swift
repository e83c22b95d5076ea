// The library pages' records, and the protocol the menu reads them through.

import PinholeCore
import SystemPackage

/// An album or smart album in the browser.
public struct LibraryAlbumRow: Hashable, Sendable {
    /// `smart:all`, `smart:camera:ID`… or a user album's id.
    public var id: String
    /// Title.
    public var title: String
    /// Photos in it.
    public var count: Int

    /// Creates a row.
    public init(id: String, title: String, count: Int) {
        self.id = id
        self.title = title
        self.count = count
    }

}

/// A photo in a list.
public struct LibraryPhotoRow: Hashable, Sendable {
    /// Identifier.
    public var id: String
    /// Capture time (ISO 8601).
    public var created: String
    /// Camera name.
    public var camera: String?
    /// Pixel size.
    public var width: Int
    /// Pixel size.
    public var height: Int
    /// Favorite.
    public var favorite: Bool
    /// Has an edit.
    public var edited: Bool
    /// When it was deleted (nil: not deleted).
    public var deleted: String?
    /// A clip's length as lists show it (`3.0 s`); nil for a photo.
    public var clipLength: String? = nil
    /// `video` or `live` for a clip; nil for a photo.
    public var clipKind: String? = nil

    /// Creates a row.
    public init(
        id: String, created: String, camera: String?, width: Int, height: Int, favorite: Bool, edited: Bool,
        deleted: String?
    ) {
        self.id = id
        self.created = created
        self.camera = camera
        self.width = width
        self.height = height
        self.favorite = favorite
        self.edited = edited
        self.deleted = deleted
    }
}

/// One photo's details: every metadata field the library reports.
public struct LibraryPhotoDetail: Sendable {
    /// Identifier.
    public var id: String
    /// The original's path.
    public var file: FilePath
    /// Capture time (ISO 8601).
    public var created: String
    /// When it was added (ISO 8601).
    public var added: String
    /// When it last changed (ISO 8601).
    public var modified: String?
    /// Camera name.
    public var camera: String?
    /// EXIF make.
    public var make: String?
    /// EXIF model.
    public var model: String?
    /// Pixel size.
    public var width: Int
    /// Pixel size.
    public var height: Int
    /// EXIF orientation (1, 3, 6, 8 …).
    public var orientation: Int?
    /// Exposure time in seconds.
    public var exposureTime: Double?
    /// ISO.
    public var iso: Int?
    /// Aperture.
    public var fNumber: Double?
    /// Focal length in mm.
    public var focalLength: Double?
    /// Lens position in dioptres.
    public var lensPosition: Double?
    /// Whether the flash fired.
    public var flashFired: Bool?
    /// Latitude.
    public var latitude: Double?
    /// Longitude.
    public var longitude: Double?
    /// Altitude in metres.
    public var altitude: Double?
    /// File size in bytes.
    public var fileSize: Int64?
    /// Checksum of the original.
    public var checksum: String?
    /// Favorite.
    public var favorite: Bool
    /// Hidden.
    public var hidden: Bool?
    /// When it was deleted (nil: not deleted).
    public var deleted: String?
    /// Whether it has an edit.
    public var edited: Bool
    /// The edit's revision.
    public var editRevision: Int?
    /// `video` or `live` for a clip; nil for a photo.
    public var clipKind: String?
    /// A clip's length (`3.0 s`).
    public var clipLength: String?
    /// A clip's frames per second.
    public var frameRate: Double?
    /// The photo upright (its orientation and edits applied), small, for the Photo page's
    /// half-block picture (nil: none could be rendered; the page shows the metadata alone).
    public var preview: RawImage?

    /// A detail with the fields every photo has; set the others as known.
    public init(
        id: String, file: FilePath, created: String, added: String, width: Int, height: Int, favorite: Bool,
        edited: Bool
    ) {
        self.id = id
        self.file = file
        self.created = created
        self.added = added
        self.width = width
        self.height = height
        self.favorite = favorite
        self.edited = edited
    }

    /// Label and value rows for the Photo page; `cameras` give the camera its display name.
    public func fields(cameras: [MenuSnapshot.Camera] = []) -> [(String, String)] {
        var rows: [(String, String)] = [
            ("Id", id), ("File", file.string), ("Taken", created), ("Added", added),
        ]
        if let clipKind {
            rows.append(
                ("Type", clipKind == "live" ? "Live Photo" : "clip (the picture is its poster frame)"))
        }
        if let clipLength { rows.append(("Duration", clipLength)) }
        if let frameRate, frameRate.isFinite {
            rows.append(("Frame rate", "\(CameraPage.rounded(frameRate)) fps"))
        }
        if let modified { rows.append(("Modified", modified)) }
        rows.append(("Camera", CameraDisplayName.of(id: camera, model: model, among: cameras)))
        if let make { rows.append(("Make", make)) }
        if let camera { rows.append(("Camera id", camera)) }
        rows.append(("Size", "\(width)x\(height)" + (orientation.map { ", orientation \($0)" } ?? "")))
        if let exposureTime {
            // A hostile file's EXIF may say anything: clamp before converting.
            let microseconds = exposureTime.isFinite ? min(max(exposureTime, 0), 86_400) * 1_000_000 : 0
            rows.append(("Exposure", StatusLine.shutter(microseconds: Int(microseconds))))
        }
        if let iso { rows.append(("ISO", "\(iso)")) }
        if let fNumber { rows.append(("Aperture", "f/\(CameraPage.rounded(fNumber))")) }
        if let focalLength { rows.append(("Focal length", "\(CameraPage.rounded(focalLength)) mm")) }
        if let lensPosition { rows.append(("Lens position", "\(CameraPage.rounded(lensPosition)) dioptres")) }
        if let flashFired { rows.append(("Flash", flashFired ? "fired" : "did not fire")) }
        if let latitude, let longitude {
            rows.append(("Location", "\(latitude), \(longitude)" + (altitude.map { ", \(Int($0)) m" } ?? "")))
        }
        if let fileSize { rows.append(("File size", StatusLine.bytes(fileSize))) }
        if let checksum { rows.append(("Checksum", checksum)) }
        rows.append(("Favorite", favorite ? "yes" : "no"))
        if hidden == true { rows.append(("Hidden", "yes")) }
        rows.append(("Edited", edited ? "yes (revision \(editRevision ?? 0))" : "no"))
        if let deleted { rows.append(("Deleted", deleted)) }
        return rows
    }
}

/// What the menu reads from the photo library: records and queries, not command text.
/// The executable implements it over the library store; the menu loads through it on a
/// worker thread, never on the event loop.
public protocol LibraryReading: Sendable {
    /// The smart albums, then the user albums, with counts.
    func albums() throws -> [LibraryAlbumRow]
    /// A page of an album's or smart album's photos.
    func photos(in source: LibraryAlbumRow, offset: Int, limit: Int) throws -> [LibraryPhotoRow]
    /// One photo's details (nil: no such photo).
    func photo(id: String) throws -> LibraryPhotoDetail?
}

/// Answers the menu's library requests through `LibraryReading`.
public enum LibraryLoader {
    /// Answers `request` from `library`; a failure becomes `.failed` with its reason.
    public static func load(_ request: LibraryRequest, from library: LibraryReading) -> LibraryData {
        do {
            switch request {
            case .albums:
                return .albums(try library.albums())
            case .photos(let source, let offset, let limit):
                return .photos(
                    source: source, offset: offset,
                    rows: try library.photos(in: source, offset: offset, limit: limit))
            case .photo(let id):
                guard let detail = try library.photo(id: id) else { return .failed("no photo \(id)") }
                return .photo(detail)
            }
        } catch {
            return .failed("\(error)")
        }
    }
}
