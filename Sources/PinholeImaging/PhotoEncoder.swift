// The capture path's encoder: JPEG from camera planes, EXIF with every tag, 160×120 thumbnail.

import PinholeCore

/// Encodes a captured frame into a complete photo file.
public struct PhotoEncoder: Sendable {
    /// EXIF thumbnail size (DCF).
    public static let thumbnailSize = PixelSize(width: 160, height: 120)

    private let encoder: JPEGEncoder
    private let thumbnailQuality: Int

    /// Creates an encoder with `quality` (1...100) for the photo and `threads` bands.
    public init(quality: Int = 93, threads: Int = SystemInfo.onlineCPUs) {
        encoder = JPEGEncoder(quality: quality, threads: threads)
        thumbnailQuality = 85
    }

    /// JPEG + APP1 EXIF (all tags from `metadata`) + 160×120 IFD1 thumbnail.
    ///
    /// Pixels are never rotated: `metadata.orientation` is written as the Orientation tag and
    /// the thumbnail is stored in the same (sensor) orientation, as EXIF requires.
    /// `metadata`'s pixel size is replaced by the image's.
    /// - Throws: `ImagingError` when the image is invalid or encoding fails.
    public func encode(image: RawImage, metadata: PhotoMetadata) throws -> [UInt8] {
        let sink = ByteArraySink()
        try encode(image: image, metadata: metadata, into: sink)
        return sink.bytes
    }

    /// The same photo as `encode(image:metadata:)`, written to `sink` piece by piece while it
    /// is encoded (see `JPEGEncoder`): the whole JPEG is never in memory beside the frame.
    /// - Throws: `ImagingError` when the image is invalid or encoding fails, and whatever
    ///   `sink` throws (nothing more is written then).
    public func encode(image: RawImage, metadata: PhotoMetadata, into sink: any ByteSink) throws {
        try image.validate()
        var metadata = metadata
        metadata.pixelWidth = image.width
        metadata.pixelHeight = image.height
        let app1 = try PhotoEncoder.exifPayload(metadata, image: image, quality: thumbnailQuality)
        try encoder.encode(image, app1: app1, into: sink)
    }

    /// The EXIF block with a thumbnail of `image`; when strings make it too big for one APP1
    /// segment the thumbnail is re-encoded smaller, and left out as a last resort.
    static func exifPayload(_ metadata: PhotoMetadata, image: RawImage, quality: Int) throws -> [UInt8] {
        for thumbnailQuality in [quality, 60, 30] {
            let thumbnail = try exifThumbnail(of: image, quality: thumbnailQuality)
            do {
                return try ExifWriter.exifPayload(metadata, thumbnail: thumbnail)
            } catch ImagingError.exifTooLarge {
                continue
            }
        }
        return try ExifWriter.exifPayload(metadata, thumbnail: nil)
    }

    /// A 160×120 JPEG of `image`, letterboxed in black when its aspect ratio is not 4:3.
    public static func exifThumbnail(of image: RawImage, quality: Int = 85) throws -> [UInt8] {
        let canvas = thumbnailSize
        let rect = Resampler.fitRect(PixelSize(width: image.width, height: image.height), in: canvas)
        let small = Resampler.render(image, canvas: canvas, destination: rect)
        return try JPEGEncoder(quality: quality, threads: 1).encode(small)
    }
}
