// The menu's view of the photo library: albums, pages of photos and one photo's details.

import PinholeConsole
import PinholeCore
import PinholeLibrary

/// Reads the photo library for the console menu through its queries and records (no
/// command text, no JSON in between). Called on a worker thread.
struct LibraryMenuReader: LibraryReading {
    let library: PhotoLibrary
    /// The Photo page's picture: enough for a large terminal (half blocks are one pixel wide,
    /// two tall), rendered once and then read from the thumbnail cache.
    static let previewSize = PixelSize(width: 320, height: 240)

    func albums() throws -> [LibraryAlbumRow] {
        let smart = try library.smartAlbums().map { album in
            LibraryAlbumRow(
                id: album.id, title: album.title, count: try library.count(library.query(for: album)))
        }
        return smart
            + (try library.albums().map { LibraryAlbumRow(id: $0.id, title: $0.title, count: $0.count) })
    }

    func photos(in source: LibraryAlbumRow, offset: Int, limit: Int) throws -> [LibraryPhotoRow] {
        let query = try query(for: source.id)
        return try library.assets(query.limit(limit, offset: offset)).map(Self.row)
    }

    /// The query behind an album row's id (`smart:…` or a user album's id).
    func query(for source: String) throws -> AssetQuery {
        if source.hasPrefix("smart:") {
            guard let smart = SmartAlbum(name: source) else {
                throw LibraryError.invalidRequest("no smart album \(source)")
            }
            return library.query(for: smart)
        }
        return library.albumQuery(source)
    }

    /// A photo as a list shows it.
    static func row(_ asset: Asset) -> LibraryPhotoRow {
        var row = LibraryPhotoRow(
            id: asset.id, created: asset.created.iso8601, camera: asset.cameraName,
            width: asset.pixelWidth, height: asset.pixelHeight, favorite: asset.favorite,
            edited: asset.isEdited, deleted: asset.deleted?.iso8601)
        if asset.mediaType != .photo {
            row.clipKind = asset.mediaType.rawValue
            row.clipLength = asset.duration.map(DurationText.clipLength)
        }
        return row
    }

    func photo(id: String) throws -> LibraryPhotoDetail? {
        guard let asset = try library.asset(id: id) else { return nil }
        var detail = LibraryPhotoDetail(
            id: asset.id, file: library.fileURLPath(of: asset), created: asset.created.iso8601,
            added: asset.added.iso8601, width: asset.pixelWidth, height: asset.pixelHeight,
            favorite: asset.favorite, edited: asset.isEdited)
        detail.modified = asset.modified.iso8601
        detail.camera = asset.cameraID
        detail.make = asset.make
        detail.model = asset.model
        detail.orientation = Int(asset.orientation.rawValue)
        detail.exposureTime = asset.exposureTime
        detail.iso = asset.iso
        detail.fNumber = asset.fNumber
        detail.focalLength = asset.focalLength
        detail.lensPosition = asset.lensPosition
        detail.flashFired = asset.flashFired
        detail.latitude = asset.gps?.latitude
        detail.longitude = asset.gps?.longitude
        detail.altitude = asset.gps?.altitude
        detail.fileSize = asset.fileSize
        detail.checksum = asset.checksum
        detail.hidden = asset.hidden
        detail.deleted = asset.deleted?.iso8601
        detail.editRevision = asset.editRevision
        if asset.mediaType != .photo {
            detail.clipKind = asset.mediaType.rawValue
            detail.clipLength = asset.duration.map(DurationText.clipLength)
            detail.frameRate = asset.frameRate
        }
        // A damaged original still shows its metadata: the picture is left out. A clip's
        // picture is its poster frame (the thumbnail renders it).
        detail.preview = try? library.previewPixels(of: asset, fitting: Self.previewSize)
        return detail
    }
}
