// A Google Motion Photo (`.MP.jpg`) read back: the still, the MP4 appended after it, and the still's time.

import PinholeImaging

/// The two resources of a Motion Photo file, read without holding its video: the still's
/// bytes, and where the MP4 lies in the file (the import streams it from there).
struct MotionPhotoParts {
    /// The appended MP4's offset in the file.
    var videoOffset: Int64
    /// The appended MP4's length.
    var videoLength: Int64
    /// Where the still falls in the video (XMP `MotionPhotoPresentationTimestampUs`); nil when
    /// unspecified (-1) or absent.
    var presentationMicroseconds: Int64?

    /// Reads the JPEG at `path` (a regular file from outside the library, see
    /// `POSIXFiles.withRegularFile`). A Motion Photo (an XMP APP1 segment among the leading APP
    /// segments saying `MotionPhoto="1"`, whose `Container:Directory` gives the `MotionPhoto`
    /// item's `Item:Length`, and an MP4 of that length at the end) gives its still (the JPEG
    /// without that segment and without the video, at most `limit` bytes) and its parts; the
    /// video is not read. Any other file is read whole (at most `limit` bytes), parts nil.
    static func read(_ path: String, limit: Int) throws -> (jpeg: [UInt8], motion: MotionPhotoParts?) {
        try POSIXFiles.withRegularFile(path) { fd, info in
            let size = Int64(info.st_size)
            let read = { (offset: Int64, count: Int) in
                try POSIXFiles.read(fd, path: path, at: offset, count: count)
            }
            guard let found = try xmpSegment(size: size, read: read),
                let parts = MotionPhotoParts(xmp: found.xmp, fileSize: size, segmentEnd: found.end),
                try read(parts.videoOffset + 4, 4) == Array("ftyp".utf8)
            else { return (try POSIXFiles.readAll(fd, path: path, size: info.st_size, limit: limit), nil) }
            let stillSize = parts.videoOffset - (found.end - found.start)
            guard stillSize <= Int64(limit) else {
                throw LibraryError.invalidImage(
                    path: path,
                    reason: "a still of \(stillSize) bytes, more than the \(limit >> 20) MB a photo may have")
            }
            let still =
                try read(0, Int(found.start)) + read(found.end, Int(parts.videoOffset - found.end))
            return (still, parts)
        }
    }

    /// The parts `xmp` describes in a file of `fileSize` bytes whose XMP segment ends at
    /// `segmentEnd`; nil when it is no Motion Photo or its numbers do not fit the file.
    private init?(xmp: String, fileSize: Int64, segmentEnd: Int64) {
        guard xmp.contains("MotionPhoto=\"1\""),
            let item = Self.element(in: xmp, containing: "Item:Semantic=\"MotionPhoto\""),
            let length = Self.attribute("Item:Length", in: item).flatMap({ Int64($0) }),
            length > 8, length < fileSize - segmentEnd
        else { return nil }
        videoOffset = fileSize - length
        videoLength = length
        let time = Self.attribute("MotionPhotoPresentationTimestampUs", in: xmp).flatMap { Int64($0) }
        presentationMicroseconds = time.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The first XMP APP1 segment among the APP segments after the start-of-image marker:
    /// its text and where the segment starts and ends; nil when there is none (or no JPEG).
    private static func xmpSegment(size: Int64, read: (Int64, Int) throws -> [UInt8]) throws
        -> (xmp: String, start: Int64, end: Int64)?
    {
        guard try read(0, 2) == [0xFF, 0xD8] else { return nil }
        let header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        var offset: Int64 = 2
        while offset + 4 <= size {
            let marker = try read(offset, 4)
            guard marker.count == 4, marker[0] == 0xFF, (0xE0...0xEF).contains(marker[1]) else { return nil }
            let length = Int(marker[2]) << 8 | Int(marker[3])
            guard length >= 2 else { return nil }
            let end = offset + 2 + Int64(length)
            if marker[1] == 0xE1 {
                let payload = try read(offset + 4, length - 2)
                if payload.starts(with: header) {
                    return (String(decoding: payload.dropFirst(header.count), as: UTF8.self), offset, end)
                }
            }
            offset = end
        }
        return nil
    }

    /// The XML element (`<…>`) of `xmp` that holds `text`.
    private static func element(in xmp: String, containing text: String) -> Substring? {
        guard let found = xmp.range(of: text),
            let open = xmp[..<found.lowerBound].lastIndex(of: "<"),
            let close = xmp[found.upperBound...].firstIndex(of: ">")
        else { return nil }
        return xmp[open...close]
    }

    /// The value of the attribute `name` (any namespace prefix before it) in `text`.
    private static func attribute<S: StringProtocol>(_ name: String, in text: S) -> String? {
        guard let found = text.range(of: name + "=\"") else { return nil }
        let rest = text[found.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
