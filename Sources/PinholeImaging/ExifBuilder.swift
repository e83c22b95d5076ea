// Builds an EXIF block with libexif: entries in their IFDs, an IFD1 thumbnail, serialisation.

import CExif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// EXIF IFDs Pinhole writes.
enum ExifIFD {
    case ifd0, exif, gps, ifd1

    var raw: ExifIfd {
        switch self {
        case .ifd0: return EXIF_IFD_0
        case .exif: return EXIF_IFD_EXIF
        case .gps: return EXIF_IFD_GPS
        case .ifd1: return EXIF_IFD_1
        }
    }
}

/// A libexif `ExifData` being filled with entries, always little-endian ("II").
/// Values are encoded here; libexif lays out the IFDs, pointers and thumbnail.
final class ExifBuilder {
    private let data: UnsafeMutablePointer<ExifData>

    init() throws {
        guard let data = exif_data_new() else {
            throw ImagingError.exifFailed(detail: "libexif is out of memory")
        }
        self.data = data
        exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
    }

    deinit { exif_data_unref(data) }

    private func content(_ ifd: ExifIFD) -> UnsafeMutablePointer<ExifContent> {
        withUnsafePointer(to: data.pointee.ifd) { tuple in
            tuple.withMemoryRebound(
                to: UnsafeMutablePointer<ExifContent>?.self, capacity: Int(EXIF_IFD_COUNT.rawValue)
            ) {
                $0[Int(ifd.raw.rawValue)]!
            }
        }
    }

    /// Adds (or replaces) an entry with raw value bytes already in little-endian order.
    func set(_ ifd: ExifIFD, _ tag: UInt16, _ format: ExifFormat, components: Int, bytes: [UInt8]) throws {
        let content = content(ifd)
        let exifTag = ExifTag(rawValue: UInt32(tag))
        if let existing = exif_content_get_entry(content, exifTag) {
            exif_content_remove_entry(content, existing)
        }
        guard let entry = exif_entry_new() else {
            throw ImagingError.exifFailed(detail: "libexif is out of memory")
        }
        defer { exif_entry_unref(entry) }
        guard let buffer = malloc(max(1, bytes.count))?.assumingMemoryBound(to: UInt8.self) else {
            throw ImagingError.exifFailed(
                detail: "out of memory for tag 0x\(hex(UInt8(tag >> 8)))\(hex(UInt8(tag & 0xFF)))")
        }
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: bytes.count) }
        entry.pointee.tag = exifTag
        entry.pointee.format = format
        entry.pointee.components = UInt(components)
        entry.pointee.size = UInt32(bytes.count)
        entry.pointee.data = buffer  // freed by libexif's default allocator (free)
        exif_content_add_entry(content, entry)
    }

    /// An ASCII entry (NUL-terminated; embedded NULs removed). Empty strings are skipped.
    func ascii(_ ifd: ExifIFD, _ tag: UInt16, _ value: String?) throws {
        guard let value else { return }
        let bytes = Array(value.utf8).filter { $0 != 0 }
        guard !bytes.isEmpty else { return }
        try set(ifd, tag, EXIF_FORMAT_ASCII, components: bytes.count + 1, bytes: bytes + [0])
    }

    /// A SHORT entry.
    func short(_ ifd: ExifIFD, _ tag: UInt16, _ value: Int) throws {
        let v = UInt16(clamping: value)
        try set(ifd, tag, EXIF_FORMAT_SHORT, components: 1, bytes: [UInt8(v & 0xFF), UInt8(v >> 8)])
    }

    /// A LONG entry.
    func long(_ ifd: ExifIFD, _ tag: UInt16, _ value: Int) throws {
        try set(ifd, tag, EXIF_FORMAT_LONG, components: 1, bytes: le32(UInt32(clamping: value)))
    }

    /// BYTE entries.
    func byte(_ ifd: ExifIFD, _ tag: UInt16, _ values: [UInt8]) throws {
        try set(ifd, tag, EXIF_FORMAT_BYTE, components: values.count, bytes: values)
    }

    /// UNDEFINED entries.
    func undefined(_ ifd: ExifIFD, _ tag: UInt16, _ values: [UInt8]) throws {
        try set(ifd, tag, EXIF_FORMAT_UNDEFINED, components: values.count, bytes: values)
    }

    /// RATIONAL entries (non-negative).
    func rational(_ ifd: ExifIFD, _ tag: UInt16, _ values: [Rational]) throws {
        let bytes = values.flatMap {
            le32(UInt32(clamping: $0.numerator)) + le32(UInt32(clamping: $0.denominator))
        }
        try set(ifd, tag, EXIF_FORMAT_RATIONAL, components: values.count, bytes: bytes)
    }

    /// An SRATIONAL entry.
    func srational(_ ifd: ExifIFD, _ tag: UInt16, _ value: Rational) throws {
        let bytes =
            le32(UInt32(bitPattern: Int32(clamping: value.numerator)))
            + le32(UInt32(bitPattern: Int32(clamping: value.denominator)))
        try set(ifd, tag, EXIF_FORMAT_SRATIONAL, components: 1, bytes: bytes)
    }

    /// Sets the IFD1 thumbnail (a JPEG).
    func setThumbnail(_ jpeg: [UInt8]) throws {
        guard !jpeg.isEmpty else { return }
        guard let buffer = malloc(jpeg.count)?.assumingMemoryBound(to: UInt8.self) else {
            throw ImagingError.exifFailed(detail: "out of memory for the thumbnail")
        }
        jpeg.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: jpeg.count) }
        if let old = data.pointee.data { free(old) }
        data.pointee.data = buffer
        data.pointee.size = UInt32(jpeg.count)
    }

    /// Serialises to an APP1 payload starting with "Exif\0\0" (`exif_data_save_data`).
    func save() throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &output, &size)
        guard let output, size > 0 else {
            throw ImagingError.exifFailed(detail: "libexif could not serialise the EXIF block")
        }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    private func le32(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
    }
}
