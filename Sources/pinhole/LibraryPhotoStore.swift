// Adapts the photo library to the capture pipeline's store protocol, and the encoder likewise.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeField
import PinholeImaging
import PinholeLibrary
import SystemPackage

/// The capture pipeline's store, backed by the photo library.
struct LibraryPhotoStore: PhotoStore {
    let library: PhotoLibrary
    let directory: FilePath

    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto {
        let asset = try library.add(jpeg: jpeg, metadata: metadata)
        return SavedPhoto(id: asset.id, file: library.fileURLPath(of: asset))
    }

    /// Creates the photo and adds it to the album in one change batch. An album that has
    /// gone since `album current` still gets the photo stored (never lost), outside any album.
    func store(jpeg: [UInt8], metadata: PhotoMetadata, album: String) throws -> SavedPhoto {
        guard let albumID = try library.albums().first(where: { $0.title == album })?.id else {
            return try store(jpeg: jpeg, metadata: metadata)
        }
        let result = try library.performChanges { batch in
            let id = batch.createAsset(jpeg: jpeg, metadata: metadata)
            batch.addAssets([id], to: albumID)
        }
        guard let id = result.createdAssetIDs.first, let asset = try library.asset(id: id) else {
            throw CaptureError.failed("the library did not return the new photo")
        }
        return SavedPhoto(id: asset.id, file: library.fileURLPath(of: asset))
    }

    /// Encodes straight into the library's new file, left unsynced under its temporary name:
    /// `index` syncs and renames it, then commits (a burst's next frame is encoded meanwhile).
    func write(metadata: PhotoMetadata, producing produce: (any ByteSink) throws -> Void) throws
        -> WrittenPhoto
    {
        let original = try library.writeOriginal(metadata: metadata, synced: false, producing: produce)
        return WrittenPhoto(bytes: nil, written: original, metadata: metadata)
    }

    /// Makes the file `write` wrote durable (fsync, rename, directory fsync), then indexes it
    /// (in the album in the same batch when it still exists).
    func index(_ photo: WrittenPhoto, album: String?) throws -> SavedPhoto {
        guard let original = photo.written as? WrittenOriginal else {
            if let jpeg = photo.bytes {
                return try album.map { try store(jpeg: jpeg, metadata: photo.metadata, album: $0) }
                    ?? store(jpeg: jpeg, metadata: photo.metadata)
            }
            throw CaptureError.failed("no photo to index")
        }
        let asset = try library.add(original, toAlbum: album)
        return SavedPhoto(id: asset.id, file: library.fileURLPath(of: asset))
    }

    func checkAlbum(_ title: String) throws {
        guard try library.albums().contains(where: { $0.title == title }) else {
            throw CaptureError.failed(
                "no album '\(title)': create it with `library album create \(title)` first")
        }
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

extension LibraryPhotoStore: StorageRecycling {
    /// Recycles through the library; one log line per photo.
    func recycle(untilFree bytes: Int64) throws -> [String] {
        try library.recycle(untilFree: bytes).map { photo in
            let what = photo.mediaType == .photo ? "" : (photo.mediaType == .video ? "clip " : "Live Photo ")
            return
                (photo.wasDeleted
                ? "purged \(what)\(photo.id) from Recently Deleted" : "recycled \(what)\(photo.id)")
                + " (taken \(photo.created.iso8601), \(photo.bytes / 1024) KB) to make room: [library] when_full = recycle"
        }
    }
}
