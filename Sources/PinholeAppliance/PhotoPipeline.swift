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
}
