// A Google Motion Photo (`.MP.jpg`) read back: the still, the MP4 appended after it, and the still's time.

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

    /// The Motion Photo in a file of `size` bytes read through `read(offset, count)` (which
    /// returns up to `count` bytes from `offset`): an XMP APP1 segment among the leading APP
    /// segments saying `MotionPhoto="1"`, whose `Container:Directory` gives the `MotionPhoto`
    /// item's `Item:Length`, and an MP4 (`ftyp`) of that length at the end. Gives its parts
    /// and the XMP segment's bytes; nil for any other file. It reads whatever a stick holds
    /// (fuzz/motionphoto): every number is checked against the file before it is used.
    static func find(size: Int64, read: (Int64, Int) throws -> [UInt8]) rethrows -> (
        parts: MotionPhotoParts, segment: Range<Int64>
    )? {
        guard let found = try xmpSegment(size: size, read: read),
            let parts = MotionPhotoParts(xmp: found.xmp, fileSize: size, segmentEnd: found.end),
            try read(parts.videoOffset + 4, 4) == Array("ftyp".utf8)
        else { return nil }
        return (parts, found.start..<found.end)
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
    private static func xmpSegment(size: Int64, read: (Int64, Int) throws -> [UInt8]) rethrows
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
        guard let found = xmp.firstRange(of: text),
            let open = xmp[..<found.lowerBound].lastIndex(of: "<"),
            let close = xmp[found.upperBound...].firstIndex(of: ">")
        else { return nil }
        return xmp[open...close]
    }

    /// The value of the attribute `name` (any namespace prefix before it) in `text`.
    private static func attribute<S: StringProtocol>(_ name: String, in text: S) -> String? {
        guard let found = text.firstRange(of: name + "=\"") else { return nil }
        let rest = text[found.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
