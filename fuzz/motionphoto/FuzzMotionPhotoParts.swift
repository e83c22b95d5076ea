// libFuzzer target: MotionPhotoParts finds a Motion Photo's parts in any bytes (a JPEG on a stick) without trapping.

/// libFuzzer's entry point: one input a call. What it finds lies inside the input: the XMP
/// segment after the start-of-image marker, the video after the segment and running to the
/// end; a reader that returns short reads (a file cut while read) never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMotionPhotoParts(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = { (offset: Int64, count: Int) -> [UInt8] in
        let start = Int(offset)
        return start >= bytes.count ? [] : Array(bytes[start..<min(start + count, bytes.count)])
    }
    if let (parts, segment) = MotionPhotoParts.find(size: Int64(size), read: whole) {
        precondition(
            segment.lowerBound >= 2 && segment.upperBound < parts.videoOffset, "segment outside the still")
        precondition(parts.videoOffset + parts.videoLength == Int64(size), "video not at the end")
    }
    _ = MotionPhotoParts.find(size: Int64(size)) { offset, count in Array(whole(offset, min(count, 3))) }
    return 0
}
