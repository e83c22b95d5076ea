// A bounds-checked walk over a JPEG's marker segments, up to the start of the scan.

/// One marker segment of a JPEG header.
public struct JPEGSegment: Sendable, Equatable {
    /// The marker's second byte (e.g. 0xE1 for APP1, 0xC0 for SOF0).
    public var marker: UInt8
    /// Offset of the 0xFF that starts the marker.
    public var start: Int
    /// Offsets of the payload (after the two length bytes).
    public var payload: Range<Int>
    /// Offset just past the segment.
    public var end: Int { payload.upperBound }
}

/// The header structure of a JPEG: its segments up to and including the first SOS, and the
/// frame size from the SOF segment. Parsing never reads out of bounds; bad input throws.
public struct JPEGLayout: Sendable {
    /// Segments in file order, from the first after SOI through the first SOS.
    public var segments: [JPEGSegment]
    /// Offset of the first byte of entropy-coded data (just past the SOS segment).
    public var scanStart: Int
    /// Frame width from the SOF segment.
    public var width: Int
    /// Frame height from the SOF segment.
    public var height: Int
    /// Number of colour components from the SOF segment.
    public var components: Int
    /// The SOF marker (0xC0 baseline, 0xC2 progressive, …).
    public var sofMarker: UInt8
    /// Offset of the SOF segment's payload.
    public var sofPayload: Range<Int>

    /// Parses the header of `bytes`.
    /// - Throws: `ImagingError.notJPEG`, `.truncatedJPEG` or `.malformedJPEG`.
    public init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw ImagingError.notJPEG }
        var segments: [JPEGSegment] = []
        var sof: (marker: UInt8, payload: Range<Int>)?
        var offset = 2
        while true {
            // Markers may be preceded by any number of 0xFF fill bytes.
            guard offset < bytes.count else {
                throw ImagingError.truncatedJPEG(detail: "file ends at byte \(offset) before the image data")
            }
            if bytes[offset] != 0xFF {
                // Like libjpeg, skip extraneous bytes before a marker (some writers leave them).
                let found = offset
                while offset + 1 < bytes.count && !(bytes[offset] == 0xFF && bytes[offset + 1] != 0x00) {
                    offset += 1
                }
                guard offset + 1 < bytes.count else {
                    throw ImagingError.malformedJPEG(
                        detail: "no marker after byte \(found) (found 0x\(hex(bytes[found])))")
                }
            }
            let start = offset
            while offset < bytes.count && bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else {
                throw ImagingError.truncatedJPEG(detail: "file ends inside a marker at byte \(start)")
            }
            let marker = bytes[offset]
            offset += 1
            switch marker {
            case 0x00:
                throw ImagingError.malformedJPEG(
                    detail: "stuffed byte FF00 at byte \(start) outside image data")
            case 0x01, 0xD0...0xD7:
                continue  // standalone markers without a length
            case 0xD8:
                throw ImagingError.malformedJPEG(detail: "second SOI marker at byte \(start)")
            case 0xD9:
                throw ImagingError.malformedJPEG(detail: "EOI at byte \(start) before any image data")
            default:
                break
            }
            guard offset + 2 <= bytes.count else {
                throw ImagingError.truncatedJPEG(
                    detail: "file ends inside the length of marker FF\(hex(marker)) at byte \(start)")
            }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard length >= 2 else {
                throw ImagingError.malformedJPEG(
                    detail: "marker FF\(hex(marker)) at byte \(start) has length \(length)")
            }
            let end = offset + length
            guard end <= bytes.count else {
                throw ImagingError.truncatedJPEG(
                    detail:
                        "segment FF\(hex(marker)) at byte \(start) needs \(length) bytes, only \(bytes.count - offset) left"
                )
            }
            let segment = JPEGSegment(marker: marker, start: start, payload: (offset + 2)..<end)
            segments.append(segment)
            offset = end
            if JPEGLayout.isSOF(marker) {
                guard sof == nil else {
                    throw ImagingError.malformedJPEG(detail: "second frame header at byte \(start)")
                }
                guard length >= 8 else {
                    throw ImagingError.malformedJPEG(
                        detail: "frame header at byte \(start) is \(length) bytes, too short")
                }
                sof = (marker, segment.payload)
            }
            if marker == 0xDA { break }
        }
        guard let sof else {
            throw ImagingError.malformedJPEG(detail: "no frame header (SOF) before the scan")
        }
        let p = sof.payload.lowerBound
        self.segments = segments
        self.scanStart = offset
        self.height = Int(bytes[p + 1]) << 8 | Int(bytes[p + 2])
        self.width = Int(bytes[p + 3]) << 8 | Int(bytes[p + 4])
        self.components = Int(bytes[p + 5])
        self.sofMarker = sof.marker
        self.sofPayload = sof.payload
        guard width > 0, height > 0 else {
            throw ImagingError.malformedJPEG(detail: "frame header gives a size of \(width)x\(height)")
        }
    }

    /// Whether `marker` is a start-of-frame marker (SOF0…SOF15 minus DHT, JPG and DAC).
    static func isSOF(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The first APP1 segment whose payload starts with "Exif\0\0", if any.
    public func exifSegment(in bytes: [UInt8]) -> JPEGSegment? {
        segments.first { segment in
            segment.marker == 0xE1 && segment.payload.count >= 6
                && Array(bytes[segment.payload.prefix(6)]) == JPEGLayout.exifHeader
        }
    }

    /// "Exif\0\0", the identifier at the start of an EXIF APP1 payload.
    static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
}

/// Two upper-case hex digits.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}
