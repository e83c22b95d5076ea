// The web gallery's reads of the library: keyset pages, cached thumbnails and originals.

import PinholeConsole
import PinholeCore
import PinholeLibrary
import PinholeWeb
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

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

    func thumbnailJPEG(id: String, size: Int) throws -> [UInt8]? {
        guard let asset = try library.asset(id: id) else { return nil }
        return try library.thumbnail(of: asset, size: PixelSize(width: size, height: size), mode: .aspectFit)
            .jpeg
    }

    func observeChanges(_ handler: @escaping @Sendable ([String]) -> Void) -> (any Sendable)? {
        library.observe(AssetQuery(trash: .included, includesHidden: true)) { details in
            handler(details.insertedIDs + details.removedIDs + details.changedIDs)
        }
    }

    func originalFile(id: String) throws -> (path: FilePath, size: Int64, name: String)? {
        guard let asset = try library.asset(id: id) else { return nil }
        let path = library.fileURLPath(of: asset)
        let name = path.lastComponent?.string ?? "\(id).jpg"
        return (path, asset.fileSize, name)
    }

    func motionFile(id: String) throws -> (path: FilePath, size: Int64, name: String)? {
        guard let asset = try library.asset(id: id), let path = library.motionFilePath(of: asset) else {
            return nil
        }
        var info = stat()
        guard stat(path.string, &info) == 0 else { return nil }
        return (path, Int64(info.st_size), "\(id).motion.mp4")
    }
}
