// Errors of the imaging module: what failed, why, and what to do about it.

/// An imaging failure. Every case's description says what failed and what to do.
public enum ImagingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The data does not start with a JPEG start-of-image marker.
    case notJPEG
    /// The JPEG ends before its structure is complete.
    case truncatedJPEG(detail: String)
    /// A JPEG segment is malformed (bad marker, bad length).
    case malformedJPEG(detail: String)
    /// libjpeg-turbo refused to encode.
    case encodeFailed(detail: String)
    /// libjpeg-turbo refused to decode.
    case decodeFailed(detail: String)
    /// A raw image's planes do not match its format and size.
    case invalidImage(detail: String)
    /// The image is larger than the configured pixel limit.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// The EXIF block is malformed.
    case malformedEXIF(detail: String)
    /// The EXIF block would not fit in one APP1 segment.
    case exifTooLarge(bytes: Int)
    /// libexif failed.
    case exifFailed(detail: String)
    /// A parameter is outside its valid range.
    case invalidParameter(detail: String)

    /// What failed, why, and what to do.
    public var description: String {
        switch self {
        case .notJPEG:
            return "not a JPEG (no SOI marker): the data does not start with FF D8; check the file is a JPEG"
        case .truncatedJPEG(let detail):
            return "truncated JPEG: \(detail); the file was cut short, re-copy or re-capture it"
        case .malformedJPEG(let detail):
            return "malformed JPEG: \(detail)"
        case .encodeFailed(let detail):
            return "JPEG encode failed: \(detail)"
        case .decodeFailed(let detail):
            return "JPEG decode failed: \(detail)"
        case .invalidImage(let detail):
            return "invalid raw image: \(detail)"
        case .imageTooLarge(let width, let height, let limit):
            return
                "image is \(width)x\(height), over the limit of \(limit) pixels; raise the limit or use a smaller image"
        case .malformedEXIF(let detail):
            return "malformed EXIF: \(detail)"
        case .exifTooLarge(let bytes):
            return
                "EXIF block is \(bytes) bytes, over the 64 KB APP1 limit; use a smaller thumbnail or shorter strings"
        case .exifFailed(let detail):
            return "EXIF write failed: \(detail)"
        case .invalidParameter(let detail):
            return "invalid parameter: \(detail)"
        }
    }
}
