// Loads an EXIF block with libexif and reads typed values from it, checking every format and size.

import CExif

/// Parsed EXIF entries, read defensively: a value whose format, count or size is wrong is
/// treated as absent, never read out of bounds.
final class ExifEntries {
    private let data: UnsafeMutablePointer<ExifData>
    private let bigEndian: Bool

    /// Loads `payload` (an APP1 payload starting with "Exif\0\0").
    /// - Throws: `ImagingError.malformedEXIF` when the TIFF header is invalid.
    init(payload: [UInt8]) throws {
        try ExifEntries.checkTIFFHeader(payload)
        guard let data = exif_data_new() else {
            throw ImagingError.exifFailed(detail: "libexif is out of memory")
        }
        // Read what is there; do not let libexif "fix" (add or drop) entries.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        payload.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        self.data = data
        bigEndian = exif_data_get_byte_order(data) == EXIF_BYTE_ORDER_MOTOROLA
    }

    deinit { exif_data_unref(data) }

    /// Checks "Exif\0\0", the byte-order mark, 42 and the IFD0 offset.
    static func checkTIFFHeader(_ payload: [UInt8]) throws {
        guard payload.count >= 14, Array(payload[0..<6]) == JPEGLayout.exifHeader else {
            throw ImagingError.malformedEXIF(
                detail: "APP1 block of \(payload.count) bytes has no Exif header and TIFF header")
        }
        let big: Bool
        switch (payload[6], payload[7]) {
        case (0x49, 0x49): big = false
        case (0x4D, 0x4D): big = true
        default: throw ImagingError.malformedEXIF(detail: "byte-order mark is neither II nor MM")
        }
        let magic = big ? Int(payload[8]) << 8 | Int(payload[9]) : Int(payload[9]) << 8 | Int(payload[8])
        guard magic == 42 else { throw ImagingError.malformedEXIF(detail: "TIFF magic is \(magic), not 42") }
        let o = Array(payload[10..<14])
        let offset =
            big
            ? Int(o[0]) << 24 | Int(o[1]) << 16 | Int(o[2]) << 8 | Int(o[3])
            : Int(o[3]) << 24 | Int(o[2]) << 16 | Int(o[1]) << 8 | Int(o[0])
        guard offset >= 8, offset + 2 <= payload.count - 6 else {
            throw ImagingError.malformedEXIF(
                detail: "IFD0 offset \(offset) is outside the \(payload.count - 6)-byte TIFF block")
        }
    }

    /// Number of entries in an IFD.
    func count(_ ifd: ExifIFD) -> Int { Int(content(ifd)?.pointee.count ?? 0) }

    /// The IFD1 thumbnail JPEG, if any.
    var thumbnail: [UInt8]? {
        guard let bytes = data.pointee.data, data.pointee.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(data.pointee.size)))
    }

    private func content(_ ifd: ExifIFD) -> UnsafeMutablePointer<ExifContent>? {
        withUnsafePointer(to: data.pointee.ifd) { tuple in
            tuple.withMemoryRebound(
                to: UnsafeMutablePointer<ExifContent>?.self, capacity: Int(EXIF_IFD_COUNT.rawValue)
            ) {
                $0[Int(ifd.raw.rawValue)]
            }
        }
    }

    /// The raw bytes of an entry whose format is one of `formats` and which holds at least
    /// `minimum` components; nil otherwise.
    func raw(_ ifd: ExifIFD, _ tag: UInt16, _ formats: [ExifFormat], minimum: Int = 1)
        -> (format: ExifFormat, bytes: [UInt8])?
    {
        guard let content = content(ifd),
            let entry = exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag))),
            formats.contains(entry.pointee.format), let bytes = entry.pointee.data
        else { return nil }
        let unit = Int(exif_format_get_size(entry.pointee.format))
        let components = Int(entry.pointee.components)
        guard unit > 0, components >= minimum, components <= Int(entry.pointee.size) / unit else {
            return nil
        }
        return (entry.pointee.format, Array(UnsafeBufferPointer(start: bytes, count: components * unit)))
    }

    private func uint(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt32 {
        var value: UInt32 = 0
        for i in 0..<width {
            let b = UInt32(bytes[offset + (bigEndian ? i : width - 1 - i)])
            value = value << 8 | b
        }
        return value
    }

    /// An ASCII (or UNDEFINED) string up to its first NUL, trimmed; nil when empty.
    func string(_ ifd: ExifIFD, _ tag: UInt16) -> String? {
        guard let (_, bytes) = raw(ifd, tag, [EXIF_FORMAT_ASCII, EXIF_FORMAT_UNDEFINED]) else { return nil }
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: " ")
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A BYTE, SHORT or LONG integer.
    func integer(_ ifd: ExifIFD, _ tag: UInt16, index: Int = 0) -> Int? {
        guard
            let (format, bytes) = raw(
                ifd, tag, [EXIF_FORMAT_BYTE, EXIF_FORMAT_SHORT, EXIF_FORMAT_LONG],
                minimum: index + 1)
        else { return nil }
        switch format {
        case EXIF_FORMAT_BYTE: return Int(bytes[index])
        case EXIF_FORMAT_SHORT: return Int(uint(bytes, at: index * 2, width: 2))
        default: return Int(uint(bytes, at: index * 4, width: 4))
        }
    }

    /// `count` RATIONAL or SRATIONAL values (zero denominators kept; callers check).
    func rationals(_ ifd: ExifIFD, _ tag: UInt16, count: Int = 1) -> [Rational]? {
        guard
            let (format, bytes) = raw(
                ifd, tag, [EXIF_FORMAT_RATIONAL, EXIF_FORMAT_SRATIONAL], minimum: count)
        else { return nil }
        let signed = format == EXIF_FORMAT_SRATIONAL
        return (0..<count).map { i in
            let n = uint(bytes, at: i * 8, width: 4), d = uint(bytes, at: i * 8 + 4, width: 4)
            return signed
                ? Rational(numerator: Int64(Int32(bitPattern: n)), denominator: Int64(Int32(bitPattern: d)))
                : Rational(numerator: Int64(n), denominator: Int64(d))
        }
    }

    /// One rational's value; nil when absent or its denominator is zero.
    func real(_ ifd: ExifIFD, _ tag: UInt16) -> Double? { rationals(ifd, tag)?.first?.value }
}

extension String {
    /// The string without leading and trailing `character`s.
    func trimmingCharacters(in character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return String(s)
    }
}
