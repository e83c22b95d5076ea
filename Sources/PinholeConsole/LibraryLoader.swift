// Loads the library pages' data through the `library` command language (its JSON answers).

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// The `library` words listing a page of it.
    func listWords(offset: Int, limit: Int) -> [String] {
        let paging = ["--limit", "\(limit)", "--offset", "\(offset)", "--json"]
        guard id.hasPrefix("smart:") else { return ["list", "--album", id] + paging }
        let name = String(id.dropFirst(6))
        if name.hasPrefix("camera:") {
            return ["smart", "camera", "--camera", String(name.dropFirst(7))] + paging
        }
        return ["smart", name] + paging
    }
}

/// A photo in a list.
public struct LibraryPhotoRow: Hashable, Sendable, Decodable {
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
}

/// One photo's details: every metadata field the library reports.
public struct LibraryPhotoDetail: Sendable, Decodable {
    var id: String
    var file: String
    var created: String
    var added: String
    var modified: String?
    var camera: String?
    var make: String?
    var model: String?
    var width: Int
    var height: Int
    var orientation: Int?
    var exposureTime: Double?
    var iso: Int?
    var fNumber: Double?
    var focalLength: Double?
    var lensPosition: Double?
    var flashFired: Bool?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var fileSize: Int64?
    var checksum: String?
    var favorite: Bool
    var hidden: Bool?
    var deleted: String?
    var edited: Bool
    var editRevision: Int?

    /// Label and value rows for the Photo page; `cameras` give the camera its display name.
    func fields(cameras: [MenuSnapshot.Camera] = []) -> [(String, String)] {
        var rows: [(String, String)] = [("Id", id), ("File", file), ("Taken", created), ("Added", added)]
        if let modified { rows.append(("Modified", modified)) }
        rows.append(("Camera", CameraDisplayName.of(id: camera, model: model, among: cameras)))
        if let make { rows.append(("Make", make)) }
        if let camera { rows.append(("Camera id", camera)) }
        rows.append(("Size", "\(width)x\(height)" + (orientation.map { ", orientation \($0)" } ?? "")))
        if let exposureTime {
            rows.append(("Exposure", StatusLine.shutter(microseconds: Int(exposureTime * 1_000_000))))
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

/// Fetches library data by running `library` commands and decoding their JSON.
public enum LibraryLoader {
    private struct Albums: Decodable {
        struct Entry: Decodable {
            var id: String
            var title: String
            var count: Int
        }
        var albums: [Entry]
        var smart: [Entry]
    }

    /// Answers a request with `run`, which executes `library` words and returns the output.
    public static func load(_ request: LibraryRequest, run: ([String]) throws -> String) -> LibraryData {
        do {
            switch request {
            case .albums:
                let albums = try decode(Albums.self, try run(["albums", "--json"]))
                return .albums(
                    (albums.smart + albums.albums).map {
                        LibraryAlbumRow(id: $0.id, title: $0.title, count: $0.count)
                    })
            case .photos(let source, let offset, let limit):
                let rows = try decode(
                    [LibraryPhotoRow].self, try run(source.listWords(offset: offset, limit: limit)))
                return .photos(source: source, offset: offset, rows: rows)
            case .photo(let id):
                return .photo(try decode(LibraryPhotoDetail.self, try run(["show", id, "--json"])))
            }
        } catch {
            return .failed("\(error)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw ConsoleError.failed("the library's answer could not be read (\(error)): \(text.prefix(80))")
        }
    }
}
