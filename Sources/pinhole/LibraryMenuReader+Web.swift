// The web gallery's reads of the library: keyset pages, cached thumbnails and originals.

import PinholeConsole
import PinholeCore
import PinholeLibrary
import PinholeWeb

extension LibraryMenuReader: WebLibraryReading {
    func photos(in source: String, after: String?, limit: Int) throws -> (
        rows: [LibraryPhotoRow], next: String?
    ) {
        let query = try query(for: source)
        let cursor = try after.map { try library.cursor(after: $0, in: query) }
        let page = try library.page(query, after: cursor, pageSize: limit)
        let rows = page.assets.map(Self.row)
        return (rows, page.hasMore ? rows.last?.id : nil)
    }

    func thumbnailFile(id: String, size: Int) throws -> String? {
        guard let asset = try library.asset(id: id) else { return nil }
        return try library.thumbnail(of: asset, size: PixelSize(width: size, height: size), mode: .aspectFit)
            .file
    }

    func originalFile(id: String) throws -> (path: String, size: Int64, name: String)? {
        guard let asset = try library.asset(id: id) else { return nil }
        let path = library.fileURLPath(of: asset)
        let name = path.split(separator: "/").last.map(String.init) ?? "\(id).jpg"
        return (path, asset.fileSize, name)
    }
}
