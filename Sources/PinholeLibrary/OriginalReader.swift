// Reads the metadata of a JPEG that enters the library without a capture (adoption, import).

import PinholeImaging

/// Metadata of JPEG files found on disk or imported.
enum OriginalReader {
    /// The metadata of `bytes` from its EXIF (size from the frame header). A JPEG that is
    /// truncated (no end-of-image marker) or not a JPEG throws `LibraryError.invalidImage`;
    /// a JPEG whose EXIF is unreadable gets only its size.
    static func metadata(of bytes: [UInt8], path: String) throws -> PhotoMetadata {
        let info: JPEGProbe.Info
        switch JPEGProbe.inspect(bytes) {
        case let .success(found): info = found
        case let .failure(failure): throw LibraryError.invalidImage(path: path, reason: failure.reason)
        }
        do {
            return try ExifReader.read(jpeg: bytes)
        } catch ImagingError.malformedEXIF {
            return PhotoMetadata(pixelWidth: info.width, pixelHeight: info.height)
        } catch {
            throw LibraryError.invalidImage(path: path, reason: "\(error)")
        }
    }
}
