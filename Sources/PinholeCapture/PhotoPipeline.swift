// The two services a capture needs after the frame: an encoder and a durable store.

import PinholeCore
import PinholeImaging
import SystemPackage

/// Turns a raw still and its metadata into a finished photo file's bytes.
public protocol StillEncoder: Sendable {
    /// Encodes `image` with `metadata` embedded.
    func encode(image: RawImage, metadata: PhotoMetadata) throws -> [UInt8]
    /// Encodes `image` into `sink` piece by piece (a store's file), so that the whole file
    /// need not be in memory beside the frame.
    func encode(image: RawImage, metadata: PhotoMetadata, into sink: any ByteSink) throws
}

extension StillEncoder {
    /// Encodes the whole file, then writes it to `sink` at once.
    public func encode(image: RawImage, metadata: PhotoMetadata, into sink: any ByteSink) throws {
        let bytes = try encode(image: image, metadata: metadata)
        try bytes.withUnsafeBytes { try sink.write($0) }
    }
}

/// A photo written by `PhotoStore.write(metadata:producing:)`, waiting to be indexed.
public struct WrittenPhoto: Sendable {
    /// The file's bytes, for a store that writes them when indexing.
    public var bytes: [UInt8]?
    /// The store's own record of a file already written.
    public var written: (any Sendable)?
    /// The photo's metadata.
    public var metadata: PhotoMetadata

    /// Creates a record.
    public init(bytes: [UInt8]?, written: (any Sendable)?, metadata: PhotoMetadata) {
        self.bytes = bytes
        self.written = written
        self.metadata = metadata
    }
}

/// A photo that is durably stored.
public struct SavedPhoto: Sendable, Hashable {
    /// The library's identifier.
    public var id: String
    /// Absolute path of the file.
    public var file: FilePath

    /// Creates a record.
    public init(id: String, file: FilePath) {
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
    /// Writes a photo whose bytes `produce` writes into the sink; called off the loop, for
    /// several photos at once. A store that can writes them durably into its file as they
    /// come, so the whole file is never in memory; `index(_:album:)` then indexes it.
    func write(metadata: PhotoMetadata, producing produce: (any ByteSink) throws -> Void) throws
        -> WrittenPhoto
    /// Indexes (and stores, when `write` kept the bytes) a written photo, in the album titled
    /// `album` when given; on the loop's worker thread, one photo after the other.
    func index(_ photo: WrittenPhoto, album: String?) throws -> SavedPhoto
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

    /// Keeps the bytes in memory; `index` stores them.
    public func write(metadata: PhotoMetadata, producing produce: (any ByteSink) throws -> Void) throws
        -> WrittenPhoto
    {
        let sink = ByteArraySink()
        try produce(sink)
        return WrittenPhoto(bytes: sink.bytes, written: nil, metadata: metadata)
    }

    /// Stores the bytes `write` kept, with `store(jpeg:metadata:)` (or its album variant).
    public func index(_ photo: WrittenPhoto, album: String?) throws -> SavedPhoto {
        guard let jpeg = photo.bytes else {
            throw CaptureError.failed("this photo store cannot index a file it did not write")
        }
        if let album { return try store(jpeg: jpeg, metadata: photo.metadata, album: album) }
        return try store(jpeg: jpeg, metadata: photo.metadata)
    }
}
