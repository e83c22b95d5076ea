// Adapts the photo library to the capture pipeline's store protocol, and the encoder likewise.

import PinholeAppliance
import PinholeCore
import PinholeImaging
import PinholeLibrary

/// The capture pipeline's store, backed by the photo library.
struct LibraryPhotoStore: PhotoStore {
    let library: PhotoLibrary
    let directory: String

    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto {
        let asset = try library.add(jpeg: jpeg, metadata: metadata)
        return SavedPhoto(id: asset.id, file: library.fileURLPath(of: asset))
    }

    /// Kept from change notifications (see `LibraryWatch`), not counted on every status.
    let watch: LibraryWatch

    func photoCount() throws -> Int {
        if let count = watch.count { return count }
        return try library.count(.all)
    }

    func freeBytes() -> Int64? { FileSystem.freeBytes(at: directory) }
}

extension PhotoEncoder: StillEncoder {}

extension LibraryPhotoStore: AlbumFiling {
    /// Adds the photo to the album with that title, creating the album in the same batch when
    /// there is none.
    func file(_ photoID: String, inAlbum album: String) throws {
        let existing = try library.albums().first { $0.title == album }
        _ = try library.performChanges { batch in
            let id = existing?.id ?? batch.createAlbum(title: album)
            batch.addAssets([photoID], to: id)
        }
    }
}
