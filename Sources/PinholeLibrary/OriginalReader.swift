// Reads the metadata of a JPEG that enters the library without a capture (adoption, import).

import PinholeImaging

/// Metadata of JPEG files found on disk or imported.
enum OriginalReader {
    /// The metadata of `bytes`: size from the frame header; a JPEG that is truncated or not a
    /// JPEG throws `LibraryError.invalidImage`.
    static func metadata(of bytes: [UInt8], path: String) throws -> PhotoMetadata {
        switch JPEGProbe.inspect(bytes) {
        case let .success(info):
            return PhotoMetadata(pixelWidth: info.width, pixelHeight: info.height)
        case let .failure(failure):
            throw LibraryError.invalidImage(path: path, reason: failure.reason)
        }
    }
}
