// The JPEG files and metadata the library, sync and 1M benchmarks store: small real JPEGs with EXIF, and a 12 MP one.

import PinholeCore
import PinholeImaging

/// Real JPEG files for the benchmarks (libjpeg-turbo, EXIF by libexif).
enum BenchJPEG {
    /// The metadata every benchmark photo carries.
    static func metadata() -> PhotoMetadata {
        var metadata = PhotoMetadata(pixelWidth: 64, pixelHeight: 48)
        metadata.cameraID = "bench"
        return metadata
    }

    /// A photo-sized JPEG: smooth gradients with fine texture, like a real scene.
    static func large(width: Int, height: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var random = LibraryBench.SplitMix64(seed: 42)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let noise = UInt8(truncatingIfNeeded: random.next() & 15)
                pixels[i] = UInt8(truncatingIfNeeded: x * 255 / width) &+ noise
                pixels[i + 1] = UInt8(truncatingIfNeeded: y * 255 / height) &+ noise
                pixels[i + 2] = UInt8(truncatingIfNeeded: (x ^ y) & 0x7F) &+ noise
            }
        }
        let image = RawImage(
            format: .rgb888, width: width, height: height,
            planes: [ImagePlane(bytes: pixels, stride: width * 3)])
        return try PhotoEncoder(quality: 90).encode(image: image, metadata: metadata())
    }

    /// A small real JPEG with EXIF (what the rebuild reads back); `seed` changes its pixels.
    static func small(seed: Int = 0) throws -> [UInt8] {
        let width = 64, height = 48
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in 0..<pixels.count { pixels[index] = UInt8(truncatingIfNeeded: index * 7 + seed) }
        let image = RawImage(
            format: .rgb888, width: width, height: height,
            planes: [ImagePlane(bytes: pixels, stride: width * 3)])
        var metadata = PhotoMetadata(pixelWidth: width, pixelHeight: height)
        metadata.make = "Pinhole"
        metadata.model = "Bench"
        return try PhotoEncoder(quality: 85, threads: 1).encode(image: image, metadata: metadata)
    }
}
