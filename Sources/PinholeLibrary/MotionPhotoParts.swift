// A Google Motion Photo (`.MP.jpg`) read back: the still, the MP4 appended after it, and the still's time.

import PinholeImaging

/// The two resources of a Motion Photo file.
struct MotionPhotoParts {
    /// The still: the JPEG without its Motion Photo XMP segment and without the video.
    var still: [UInt8]
    /// The appended MP4.
    var mp4: [UInt8]
    /// Where the still falls in the video (XMP `MotionPhotoPresentationTimestampUs`); nil when
    /// unspecified (-1) or absent.
    var presentationMicroseconds: Int64?

    /// Splits `bytes` when it is a Motion Photo (an XMP APP1 segment saying `MotionPhoto="1"`,
    /// whose `Container:Directory` gives the `MotionPhoto` item's `Item:Length`, and an MP4 of
    /// that length at the end); nil for any other JPEG or when the numbers do not fit the file.
    init?(_ bytes: [UInt8]) {
        guard let layout = try? JPEGLayout(bytes) else { return nil }
        let header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        for segment in layout.segments where segment.marker == 0xE1 {
            let payload = bytes[segment.payload]
            guard payload.starts(with: header) else { continue }
            let xmp = String(decoding: payload.dropFirst(header.count), as: UTF8.self)
            guard xmp.contains("MotionPhoto=\"1\""),
                let item = Self.element(in: xmp, containing: "Item:Semantic=\"MotionPhoto\""),
                let length = Self.attribute("Item:Length", in: item).flatMap({ Int($0) }),
                length > 8, length < bytes.count - segment.end,
                Array(bytes[(bytes.count - length + 4)..<(bytes.count - length + 8)]) == Array("ftyp".utf8)
            else { return nil }
            mp4 = Array(bytes.suffix(length))
            still = Array(bytes[0..<segment.start]) + bytes[segment.end..<(bytes.count - length)]
            let time = Self.attribute("MotionPhotoPresentationTimestampUs", in: xmp).flatMap { Int64($0) }
            presentationMicroseconds = time.flatMap { $0 >= 0 ? $0 : nil }
            return
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
