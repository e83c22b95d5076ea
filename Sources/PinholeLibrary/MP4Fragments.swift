// Where a fragmented MP4 cut short stops being whole: the end of its last complete fragment (moof + mdat).

/// Walks the top-level boxes of a fragmented MP4 (8-byte headers: size and type, or a 64-bit
/// size) without reading their contents. The container itself is written and read by
/// libavformat; this only finds the byte where a recording cut by a power cut or a kill must be
/// truncated so that every fragment left in it is whole.
enum MP4Fragments {
    /// The length of the whole part of the file at `path`: up to the end of the last `mdat`
    /// that follows a `moof` (or of the `moov` when no fragment is whole); nil when the file
    /// does not start like an MP4 (`ftyp`, then a `moov` before any fragment).
    static func wholeLength(of path: String) throws -> Int64? {
        try whole(of: path)?.length
    }

    /// The whole part of the file at `path` (see `wholeLength`) and how many whole fragments it
    /// holds (0: the recording was cut before its first fragment was written whole).
    static func whole(of path: String) throws -> (length: Int64, fragments: Int)? {
        guard let size = POSIXFiles.fileSize(path) else { return nil }
        var offset: Int64 = 0
        var whole: Int64?
        var sawMoov = false
        var openFragment = false
        var index = 0
        var fragments = 0
        while offset + 8 <= size {
            let header = try POSIXFiles.read(path, at: offset, count: 16)
            guard header.count >= 8 else { break }
            var length = Int64(bigEndian32(header, 0))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if length == 1 {
                guard header.count == 16 else { break }
                length = Int64(
                    bitPattern: UInt64(bigEndian32(header, 8)) << 32 | UInt64(bigEndian32(header, 12)))
            }
            // 0 means "to the end of the file", which a muxer writes only for a box it could not
            // finish: not whole.
            guard length >= 8, offset + length <= size else { break }
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

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
            | UInt32(bytes[at + 3])
    }
}
