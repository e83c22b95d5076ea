// Area-averaging resampler from any raw format to RGB888, used for thumbnails and previews.

import PinholeCore

/// A rectangle in pixels.
public struct PixelRect: Hashable, Sendable, Codable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Scales images by averaging a grid of samples over each output pixel's source area.
public enum Resampler {
    /// Renders `source` of `image` (default: all of it) into `destination` of a black RGB888
    /// canvas of `canvas` size. The image must be valid (see `RawImage`'s plane rules).
    public static func render(
        _ image: RawImage, source: PixelRect? = nil, canvas: PixelSize,
        destination: PixelRect? = nil
    ) -> RawImage {
        let src = source ?? PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let dst = destination ?? PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        var out = [UInt8](repeating: 0, count: canvas.width * canvas.height * 3)
        guard src.width > 0, src.height > 0, dst.width > 0, dst.height > 0 else {
            return RawImage(
                format: .rgb888, width: canvas.width, height: canvas.height,
                planes: [ImagePlane(bytes: out, stride: canvas.width * 3)])
        }
        // Samples per axis: enough to cover each output pixel's area, at most 6.
        let nx = min(6, max(1, (src.width + dst.width - 1) / dst.width))
        let ny = min(6, max(1, (src.height + dst.height - 1) / dst.height))
        // Source coordinates of each sample column and row.
        let xs = sampleCoordinates(
            count: dst.width, samples: nx, origin: src.x, length: src.width, limit: image.width)
        let ys = sampleCoordinates(
            count: dst.height, samples: ny, origin: src.y, length: src.height, limit: image.height)
        let grid = SampleGrid(xs: xs, ys: ys, nx: nx, ny: ny, destination: dst, canvas: canvas)
        let p = image.planes
        out.withUnsafeMutableBufferPointer { o in
            let target = o.baseAddress!
            p[0].bytes.withUnsafeBufferPointer { b0 in
                let base0 = b0.baseAddress!
                switch image.format {
                case .rgb888:
                    grid.run(
                        PackedSource(base: base0, stride: p[0].stride, bytesPerPixel: 3, red: 0, blue: 2),
                        into: target)
                case .xrgb8888:
                    grid.run(
                        PackedSource(base: base0, stride: p[0].stride, bytesPerPixel: 4, red: 2, blue: 0),
                        into: target)
                case .yuv420:
                    p[1].bytes.withUnsafeBufferPointer { b1 in
                        p[2].bytes.withUnsafeBufferPointer { b2 in
                            grid.run(
                                PlanarSource(
                                    y: base0, yStride: p[0].stride, u: b1.baseAddress!, v: b2.baseAddress!,
                                    uStride: p[1].stride, vStride: p[2].stride, step: 1), into: target)
                        }
                    }
                case .nv12:
                    p[1].bytes.withUnsafeBufferPointer { b1 in
                        grid.run(
                            PlanarSource(
                                y: base0, yStride: p[0].stride, u: b1.baseAddress!, v: b1.baseAddress! + 1,
                                uStride: p[1].stride, vStride: p[1].stride, step: 2), into: target)
                    }
                }
            }
        }
        return RawImage(
            format: .rgb888, width: canvas.width, height: canvas.height,
            planes: [ImagePlane(bytes: out, stride: canvas.width * 3)])
    }

    /// The rectangle of size `fitted` to scale `size` into so that it fits inside `bounds`
    /// (aspect fit), centred.
    public static func fitRect(_ size: PixelSize, in bounds: PixelSize) -> PixelRect {
        let scale = min(
            Double(bounds.width) / Double(size.width), Double(bounds.height) / Double(size.height))
        let w = min(bounds.width, max(1, Int((Double(size.width) * scale).rounded())))
        let h = min(bounds.height, max(1, Int((Double(size.height) * scale).rounded())))
        return PixelRect(x: (bounds.width - w) / 2, y: (bounds.height - h) / 2, width: w, height: h)
    }

    /// The centred part of an image of `size` with the aspect ratio of `target` (aspect fill crop).
    public static func fillSource(_ size: PixelSize, for target: PixelSize) -> PixelRect {
        let scale = max(
            Double(target.width) / Double(size.width), Double(target.height) / Double(size.height))
        let w = min(size.width, max(1, Int((Double(target.width) / scale).rounded())))
        let h = min(size.height, max(1, Int((Double(target.height) / scale).rounded())))
        return PixelRect(x: (size.width - w) / 2, y: (size.height - h) / 2, width: w, height: h)
    }

    private static func sampleCoordinates(count: Int, samples: Int, origin: Int, length: Int, limit: Int)
        -> [Int]
    {
        var result = [Int](repeating: 0, count: count * samples)
        for i in 0..<count {
            for s in 0..<samples {
                // Centre of sub-cell s of output pixel i, in source pixels.
                let position =
                    (Double(i) + (Double(s) + 0.5) / Double(samples)) * Double(length) / Double(count)
                result[i * samples + s] = min(limit - 1, max(0, origin + Int(position)))
            }
        }
        return result
    }
}

/// Reads one pixel as RGB from any raw format (YUV converted with full-range BT.601, as JFIF).
struct PixelSampler {
    private let image: RawImage

    init(_ image: RawImage) { self.image = image }

    @inline(__always)
    func rgb(x: Int, y: Int) -> (Int32, Int32, Int32) {
        let p = image.planes
        switch image.format {
        case .rgb888:
            let i = y * p[0].stride + x * 3
            return (Int32(p[0].bytes[i]), Int32(p[0].bytes[i + 1]), Int32(p[0].bytes[i + 2]))
        case .xrgb8888:
            let i = y * p[0].stride + x * 4
            return (Int32(p[0].bytes[i + 2]), Int32(p[0].bytes[i + 1]), Int32(p[0].bytes[i]))
        case .yuv420:
            let luma = Int32(p[0].bytes[y * p[0].stride + x])
            let u = Int32(p[1].bytes[(y / 2) * p[1].stride + x / 2])
            let v = Int32(p[2].bytes[(y / 2) * p[2].stride + x / 2])
            return PixelSampler.convert(luma, u, v)
        case .nv12:
            let luma = Int32(p[0].bytes[y * p[0].stride + x])
            let i = (y / 2) * p[1].stride + (x / 2) * 2
            return PixelSampler.convert(luma, Int32(p[1].bytes[i]), Int32(p[1].bytes[i + 1]))
        }
    }

    /// Full-range YCbCr to RGB in 16.16 fixed point.
    @inline(__always)
    static func convert(_ y: Int32, _ u: Int32, _ v: Int32) -> (Int32, Int32, Int32) {
        let cb = u - 128, cr = v - 128
        let r = y + (91_881 * cr + 32_768) >> 16
        let g = y - (22_554 * cb + 46_802 * cr - 32_768) >> 16
        let b = y + (116_130 * cb + 32_768) >> 16
        return (min(255, max(0, r)), min(255, max(0, g)), min(255, max(0, b)))
    }
}

/// A source of pixel triples: RGB, or YCbCr that is converted after averaging.
protocol SampleSource {
    /// Whether the triples are YCbCr (converted to RGB once per output pixel).
    var isYCbCr: Bool { get }
    /// The triple at (x, y).
    func sample(x: Int, y: Int) -> (Int32, Int32, Int32)
}

/// Packed RGB888 or XRGB8888 (B, G, R, X in memory).
struct PackedSource: SampleSource {
    let base: UnsafePointer<UInt8>
    let stride: Int, bytesPerPixel: Int, red: Int, blue: Int
    var isYCbCr: Bool { false }
    @inline(__always)
    func sample(x: Int, y: Int) -> (Int32, Int32, Int32) {
        let p = base + y * stride + x * bytesPerPixel
        return (Int32(p[red]), Int32(p[1]), Int32(p[blue]))
    }
}

/// Planar 4:2:0 (step 1) or NV12 (U and V interleaved, step 2).
struct PlanarSource: SampleSource {
    let y: UnsafePointer<UInt8>, yStride: Int
    let u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>
    let uStride: Int, vStride: Int, step: Int
    var isYCbCr: Bool { true }
    @inline(__always)
    func sample(x: Int, y row: Int) -> (Int32, Int32, Int32) {
        let c = (x / 2) * step
        return (
            Int32(y[row * yStride + x]), Int32(u[(row / 2) * uStride + c]), Int32(v[(row / 2) * vStride + c])
        )
    }
}

/// Where each output pixel samples its source, and the loop that averages the samples.
struct SampleGrid {
    let xs: [Int], ys: [Int]
    let nx: Int, ny: Int
    let destination: PixelRect
    let canvas: PixelSize

    func run<S: SampleSource>(_ source: S, into out: UnsafeMutablePointer<UInt8>) {
        let n = Int32(nx * ny)
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                for oy in 0..<destination.height {
                    let cy = destination.y + oy
                    guard cy >= 0, cy < canvas.height else { continue }
                    for ox in 0..<destination.width {
                        let cx = destination.x + ox
                        guard cx >= 0, cx < canvas.width else { continue }
                        var a: Int32 = 0, b: Int32 = 0, c: Int32 = 0
                        for sy in 0..<ny {
                            let y = ys[oy * ny + sy]
                            for sx in 0..<nx {
                                let t = source.sample(x: xs[ox * nx + sx], y: y)
                                a += t.0; b += t.1; c += t.2
                            }
                        }
                        var pixel = ((a + n / 2) / n, (b + n / 2) / n, (c + n / 2) / n)
                        if source.isYCbCr { pixel = PixelSampler.convert(pixel.0, pixel.1, pixel.2) }
                        let i = (cy * canvas.width + cx) * 3
                        out[i] = UInt8(pixel.0)
                        out[i + 1] = UInt8(pixel.1)
                        out[i + 2] = UInt8(pixel.2)
                    }
                }
            }
        }
    }
}
