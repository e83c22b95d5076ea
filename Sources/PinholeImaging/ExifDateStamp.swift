// Rewrites the dates of a JPEG's EXIF in place (a redated photo's export), every other byte kept.

import PinholeCore

/// Corrects EXIF dates without re-encoding anything: DateTime, DateTimeOriginal,
/// DateTimeDigitized and (when present) their OffsetTime tags are overwritten where they lie,
/// since their length never changes.
public enum ExifDateStamp {
    /// `jpeg` with its EXIF dates set to `time` (local time with its offset); nil when it
    /// has no EXIF date to correct. The GPS time and date stamps are left alone: they
    /// come from the satellites, not from the camera's clock.
    /// - Throws: `ImagingError` for a JPEG whose header cannot be read.
    public static func restamp(_ jpeg: [UInt8], to time: WallTime) throws -> [UInt8]? {
        let layout = try JPEGLayout(jpeg)
        guard let segment = layout.exifSegment(in: jpeg) else { return nil }
        var output = jpeg
        let tiff = segment.payload.lowerBound + 6
        let end = segment.payload.upperBound
        guard end - tiff >= 8 else { return nil }
        let big: Bool
        switch (jpeg[tiff], jpeg[tiff + 1]) {
        case (0x49, 0x49): big = false
        case (0x4D, 0x4D): big = true
        default: return nil
        }
        func read(_ at: Int, _ width: Int) -> Int? {
            guard at >= tiff, at + width <= end else { return nil }
            var value = 0
            for i in 0..<width { value = value << 8 | Int(jpeg[at + (big ? i : width - 1 - i)]) }
            return value
        }
        let date = Array(time.exifDateTime.utf8) + [0]
        let offset = Array(time.exifOffset.utf8) + [0]
        var changed = false
        /// Overwrites the ASCII value of each entry of `tags` in the IFD at `ifd`; returns the
        /// Exif IFD pointer when the IFD has one.
        func patch(ifd: Int, tags: [UInt16: [UInt8]]) -> Int? {
            guard let count = read(tiff + ifd, 2), count < 1000 else { return nil }
            var exifPointer: Int?
            for index in 0..<count {
                let entry = tiff + ifd + 2 + index * 12
                guard let tag = read(entry, 2), let type = read(entry + 2, 2),
                    let components = read(entry + 4, 4)
                else { return exifPointer }
                if tag == 0x8769, type == 4 { exifPointer = read(entry + 8, 4) }
                guard let value = tags[UInt16(tag)], type == 2, components == value.count else { continue }
                let at = components <= 4 ? entry + 8 : read(entry + 8, 4).map { tiff + $0 } ?? -1
                guard at >= tiff, at + value.count <= end else { continue }
                output.replaceSubrange(at..<at + value.count, with: value)
                changed = true
            }
            return exifPointer
        }
        guard let ifd0 = read(tiff + 4, 4) else { return nil }
        if let exif = patch(ifd: ifd0, tags: [ExifTagID.dateTime: date]) {
            _ = patch(
                ifd: exif,
                tags: [
                    ExifTagID.dateTimeOriginal: date, ExifTagID.dateTimeDigitized: date,
                    ExifTagID.offsetTime: offset, ExifTagID.offsetTimeOriginal: offset,
                    ExifTagID.offsetTimeDigitized: offset,
                ])
        }
        return changed ? output : nil
    }
}
