// libFuzzer target: MP4Fragments finds the whole part of any bytes (a hostile `.recording`) without trapping.

/// libFuzzer's entry point: one input a call. The whole part it finds lies inside the input and
/// holds no more fragments than there are `mdat` boxes' worth of bytes; a reader that returns
/// short reads (a file cut while read) ends the walk, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4Fragments(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let whole = MP4Fragments.whole(in: bytes) {
        precondition(whole.length >= 8 && whole.length <= Int64(size), "whole part outside the input")
        precondition(whole.fragments >= 0 && whole.fragments <= size / 16, "more fragments than boxes")
    }
    // A file that shrinks while it is read: every read returns at most 12 bytes.
    _ = MP4Fragments.whole(size: Int64(size)) { offset, count in
        let start = Int(offset)
        return Array(bytes[start..<min(start + min(count, 12), bytes.count)])
    }
    return 0
}
