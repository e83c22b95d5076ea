// Encodes each band of a raw image to its own JPEG with TurboJPEG, bands in parallel.

import CTurboJPEG
import Dispatch
import PinholeCore

/// Base addresses of an image's planes, shared read-only by the band workers.
struct PlaneBases: @unchecked Sendable {
    var bases: [UnsafePointer<UInt8>]
}

/// Results written by the band workers, each to its own slot.
private final class BandResults: @unchecked Sendable {
    var buffers: [TJBuffer?]
    var errors: [Error?]
    init(count: Int) {
        buffers = Array(repeating: nil, count: count)
        errors = Array(repeating: nil, count: count)
    }
}

/// Compresses bands of a raw image.
enum BandEncoder {
    /// Encodes every band of `image` as described by `plan`, in parallel when there are
    /// several, and returns the band JPEGs in order.
    static func encodeBands(_ image: RawImage, plan: BandPlan, quality: Int) throws -> [TJBuffer] {
        try withPlaneBases(image.planes) { bases in
            let results = BandResults(count: plan.count)
            let work: @Sendable (Int) -> Void = { index in
                do {
                    results.buffers[index] = try encodeBand(
                        image: image, bases: bases, rows: plan.rows(of: index),
                        quality: quality)
                } catch {
                    results.errors[index] = error
                }
            }
            if plan.count == 1 {
                work(0)
            } else {
                DispatchQueue.concurrentPerform(iterations: plan.count, execute: work)
            }
            if let error = results.errors.compactMap({ $0 }).first { throw error }
            return results.buffers.map { $0! }
        }
    }

    /// Calls `body` with the base address of every plane.
    static func withPlaneBases<T>(_ planes: [ImagePlane], _ body: (PlaneBases) throws -> T) rethrows
        -> T
    {
        func nest(_ index: Int, _ collected: [UnsafePointer<UInt8>]) throws -> T {
            if index == planes.count { return try body(PlaneBases(bases: collected)) }
            return try planes[index].bytes.withUnsafeBufferPointer { buffer in
                try nest(index + 1, collected + [buffer.baseAddress!])
            }
        }
        return try nest(0, [])
    }

    /// Encodes the pixel rows `rows` of `image` to one JPEG.
    static func encodeBand(
        image: RawImage, bases: PlaneBases, rows: Range<Int>,
        quality: Int
    ) throws -> TJBuffer {
        let handle = try TJHandle(.compress)
        let planes = image.planes
        let b = bases.bases
        let top = rows.lowerBound, height = rows.count
        switch image.format {
        case .yuv420:
            let c = top / 2
            return try withEvenLuma(image, base: b[0], rows: rows) { y, yStride in
                try handle.compressYUV420(
                    y: y, u: b[1] + c * planes[1].stride, v: b[2] + c * planes[2].stride,
                    strides: (yStride, planes[1].stride, planes[2].stride),
                    width: image.width, height: height, quality: quality)
            }
        case .nv12:
            // TurboJPEG takes separate U and V planes: split this band's interleaved chroma.
            let cw = image.chromaWidth, ch = (height + 1) / 2
            var u = [UInt8](repeating: 0, count: cw * ch)
            var v = [UInt8](repeating: 0, count: cw * ch)
            let uvStride = planes[1].stride
            let uv = b[1] + (top / 2) * uvStride
            u.withUnsafeMutableBufferPointer { ub in
                v.withUnsafeMutableBufferPointer { vb in
                    for row in 0..<ch {
                        let source = uv + row * uvStride
                        let uRow = ub.baseAddress! + row * cw, vRow = vb.baseAddress! + row * cw
                        for x in 0..<cw {
                            uRow[x] = source[2 * x]
                            vRow[x] = source[2 * x + 1]
                        }
                    }
                }
            }
            return try u.withUnsafeBufferPointer { ub in
                try v.withUnsafeBufferPointer { vb in
                    try withEvenLuma(image, base: b[0], rows: rows) { y, yStride in
                        try handle.compressYUV420(
                            y: y, u: ub.baseAddress!, v: vb.baseAddress!, strides: (yStride, cw, cw),
                            width: image.width, height: height, quality: quality)
                    }
                }
            }
        case .rgb888, .xrgb8888:
            let format = image.format == .rgb888 ? TJPF_RGB : TJPF_BGRX
            return try handle.compressPacked(
                b[0] + top * planes[0].stride, width: image.width,
                stride: planes[0].stride, height: height, pixelFormat: format,
                quality: quality)
        }
    }

    /// Calls `body` with the luma rows `rows` as TurboJPEG 2.1 reads them: it reads whole 2×2
    /// chroma cells, so an odd width or an odd last band would make it read one column or row
    /// past the plane. For those, the rows are copied with the last column and row repeated.
    private static func withEvenLuma<T>(
        _ image: RawImage, base: UnsafePointer<UInt8>, rows: Range<Int>,
        _ body: (UnsafePointer<UInt8>, Int) throws -> T
    ) rethrows -> T {
        let stride = image.planes[0].stride
        let top = base + rows.lowerBound * stride
        guard image.width % 2 == 1 || rows.count % 2 == 1 else { return try body(top, stride) }
        let w = image.width, h = rows.count
        let paddedWidth = w + w % 2, paddedHeight = h + h % 2
        var copy = [UInt8](repeating: 0, count: paddedWidth * paddedHeight)
        copy.withUnsafeMutableBufferPointer { out in
            for row in 0..<paddedHeight {
                let source = top + min(row, h - 1) * stride
                let target = out.baseAddress! + row * paddedWidth
                target.update(from: source, count: w)
                if paddedWidth > w { target[w] = source[w - 1] }
            }
        }
        return try copy.withUnsafeBufferPointer { try body($0.baseAddress!, paddedWidth) }
    }
}
