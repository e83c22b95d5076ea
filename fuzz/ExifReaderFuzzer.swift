// libFuzzer target: ExifReader must throw or succeed on any bytes, never crash.

import PinholeImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExifReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let metadata = try? ExifReader.read(jpeg: bytes) {
        // Whatever was read must survive being written again.
        _ = try? ExifWriter.exifPayload(metadata, thumbnail: nil)
    }
    _ = try? ExifReader.thumbnail(jpeg: bytes)
    return 0
}
