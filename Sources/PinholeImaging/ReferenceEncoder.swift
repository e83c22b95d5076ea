// libjpeg-turbo on its own, one call on one core: the baseline the benchmarks compare against.

import CTurboJPEG
import PinholeCore

/// The plain libjpeg-turbo encode of a whole YUV 4:2:0 frame in a single
/// `tjCompressFromYUVPlanes` call on the calling thread: no bands, no EXIF. Benchmarks
/// measure Pinhole's encoders against it in the same run.
public enum ReferenceEncoder {
    /// Encodes `image` (YUV 4:2:0 with even width and height) to a 4:2:0 JPEG of `quality`.
    /// - Throws: `ImagingError.invalidImage` for other formats or odd sizes, `.encodeFailed`.
    public static func encodeYUV420(_ image: RawImage, quality: Int) throws -> [UInt8] {
        try image.validate()
        guard image.format == .yuv420, image.width % 2 == 0, image.height % 2 == 0 else {
            throw ImagingError.invalidImage(detail: "the reference encoder takes even-sized yuv420 only")
        }
        let handle = try TJHandle(.compress)
        let p = image.planes
        return try p[0].bytes.withUnsafeBufferPointer { y in
            try p[1].bytes.withUnsafeBufferPointer { u in
                try p[2].bytes.withUnsafeBufferPointer { v in
                    try handle.compressYUV420(
                        y: y.baseAddress!, u: u.baseAddress!, v: v.baseAddress!,
                        strides: (p[0].stride, p[1].stride, p[2].stride),
                        width: image.width, height: image.height, quality: quality
                    ).array
                }
            }
        }
    }
}
