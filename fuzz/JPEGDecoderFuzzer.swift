// libFuzzer target: JPEGDecoder, Thumbnailer and LosslessTransform must throw or succeed on any bytes, never crash.

import PinholeCore
import PinholeImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let header = try? JPEGDecoder.header(bytes) else { return 0 }
    // Keep each run small: decode at most 4 MP.
    _ = try? JPEGDecoder.decode(bytes, fittingIn: PixelSize(width: 64, height: 64), pixelLimit: 4_000_000)
    if header.width * header.height <= 1_000_000 {
        _ = try? JPEGDecoder.decode(bytes, pixelLimit: 1_000_000)
        _ = try? Thumbnailer.render(jpeg: bytes, size: PixelSize(width: 24, height: 16), mode: .aspectFill,
                                    orientation: .rightMirrored)
        _ = try? LosslessTransform.rotate(bytes, degrees: 90)
        _ = try? LosslessTransform.crop(bytes, rect: PixelRect(x: 8, y: 8, width: 8, height: 8))
    }
    return 0
}
