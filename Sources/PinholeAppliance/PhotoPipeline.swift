// The two services a capture needs after the frame: an encoder and a durable store.

import PinholeCore
import PinholeImaging

/// Turns a raw still and its metadata into a finished photo file's bytes.
public protocol StillEncoder: Sendable {
    /// Encodes `image` with `metadata` embedded.
    func encode(image: RawImage, metadata: PhotoMetadata) throws -> [UInt8]
}

/// A photo that is durably stored.
public struct SavedPhoto: Sendable, Hashable, Codable {
    /// The library's identifier.
    public var id: String
    /// Absolute path of the file.
    public var file: String

    /// Creates a record.
    public init(id: String, file: String) {
        self.id = id
        self.file = file
    }
}

/// Where photos go. `store` is called on the loop's worker thread.
public protocol PhotoStore: Sendable {
    /// Durably stores a photo; returns only once it is safely on disk and indexed.
    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto
    /// Number of photos stored (not counting deleted ones).
    func photoCount() throws -> Int
    /// Bytes free on the storage.
    func freeBytes() -> Int64?
    /// Durably stores a photo and adds it to the album titled `album` in the same change
    /// batch, so that no observer ever sees it outside the album. A store without albums
    /// leaves this to its default, which refuses.
    func store(jpeg: [UInt8], metadata: PhotoMetadata, album: String) throws -> SavedPhoto
    /// Checks that an album titled `title` exists (for `album current`).
    func checkAlbum(_ title: String) throws
}

extension PhotoStore {
    /// No albums here: the photo is not stored, and the error says why.
    public func store(jpeg: [UInt8], metadata: PhotoMetadata, album: String) throws -> SavedPhoto {
        throw CaptureError.failed("this photo store has no albums: use `album current off`")
    }

    /// No albums here.
    public func checkAlbum(_ title: String) throws {
        throw CaptureError.failed("this photo store has no albums")
    }
}
