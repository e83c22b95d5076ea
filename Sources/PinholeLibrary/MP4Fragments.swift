// Where a fragmented MP4 cut short stops being whole: the end of its last complete fragment (moof + mdat).

/// Walks the top-level boxes of a fragmented MP4 (8-byte headers: size and type, or a 64-bit
/// size) without reading their contents. The container itself is written and read by
/// libavformat; this only finds the byte where a recording cut by a power cut or a kill must be
/// truncated so that every fragment left in it is whole. It reads whatever a card holds at open
/// (fuzz/mp4): any size a header claims (0, 1, under 8, past the end, 64-bit up to 2^64 - 1)
/// ends the walk, never an arithmetic trap.
enum MP4Fragments {
    /// The whole part of an MP4 of `size` bytes read through `read(offset, count)` (which returns
    /// up to `count` bytes from `offset`): up to the end of the last `mdat` that follows a `moof`
    /// (or of the `moov` when no fragment is whole), and how many whole fragments it holds (0:
    /// the recording was cut before its first fragment was written whole); nil when the bytes do
    /// not start like an MP4 (`ftyp`, then a `moov` before any fragment).
    static func whole(size: Int64, read: (Int64, Int) throws -> [UInt8]) rethrows -> (
        length: Int64, fragments: Int
    )? {
        var offset: Int64 = 0
        var whole: Int64?
        var sawMoov = false
        var openFragment = false
        var index = 0
        var fragments = 0
        while offset + 8 <= size {
            let header = try read(offset, 16)
            guard header.count >= 8 else { break }
            var length = Int64(bigEndian32(header, 0))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if length == 1 {
                guard header.count == 16 else { break }
                length = Int64(
                    bitPattern: UInt64(bigEndian32(header, 8)) << 32 | UInt64(bigEndian32(header, 12)))
            }
            // 0 means "to the end of the file", which a muxer writes only for a box it could not
            // finish: not whole. Compared with what is left, not as offset + length, which a
            // 64-bit size near 2^63 would overflow.
            guard length >= 8, length <= size - offset else { break }
            if index == 0 && type != "ftyp" { return nil }
            switch type {
            case "moov":
                sawMoov = true
                whole = offset + length
            case "moof":
                guard sawMoov else { return nil }
                openFragment = true
            case "mdat":
                if openFragment {
                    whole = offset + length
                    fragments += 1
                }
                openFragment = false
            case "mfra":
                if !openFragment { whole = offset + length }
            default:
                break
            }
            offset += length
            index += 1
        }
        guard sawMoov, let whole else { return nil }
        return (whole, fragments)
    }

    /// The whole part of an MP4 held in memory (see `whole(size:read:)`).
    static func whole(in bytes: [UInt8]) -> (length: Int64, fragments: Int)? {
        whole(size: Int64(bytes.count)) { offset, count in
            let start = Int(offset)
            return Array(bytes[start..<min(start + count, bytes.count)])
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
            | UInt32(bytes[at + 3])
    }
}
