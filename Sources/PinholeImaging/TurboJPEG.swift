// The only place the TurboJPEG C API is called: handles, compression and decompression.

import CTurboJPEG
import PinholeCore

/// A compressed JPEG held in a buffer TurboJPEG allocated; freed with `tjFree`.
final class TJBuffer: @unchecked Sendable {
    /// Start of the JPEG bytes.
    let base: UnsafeMutablePointer<UInt8>
    /// Number of bytes.
    let count: Int

    init(base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { tjFree(base) }

    /// The bytes as a buffer pointer, valid while `self` lives.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// A copy as an array.
    var array: [UInt8] { Array(bytes) }
}

/// One TurboJPEG instance (compressor, decompressor or transformer). Not thread-safe: use one
/// per thread.
final class TJHandle {
    /// What the handle does.
    enum Kind { case compress, decompress, transform }

    let raw: tjhandle

    /// Creates a handle (`tjInitCompress`, `tjInitDecompress`, `tjInitTransform`).
    init(_ kind: Kind) throws {
        let handle: tjhandle?
        switch kind {
        case .compress: handle = tjInitCompress()
        case .decompress: handle = tjInitDecompress()
        case .transform: handle = tjInitTransform()
        }
        guard let handle else {
            throw ImagingError.encodeFailed(
                detail: "libjpeg-turbo could not create a \(kind) instance (out of memory?)")
        }
        raw = handle
    }

    deinit { tjDestroy(raw) }

    /// The last error message of this handle (`tjGetErrorStr2`).
    var errorMessage: String {
        guard let message = tjGetErrorStr2(raw) else { return "unknown libjpeg-turbo error" }
        return String(cString: message)
    }

    /// Whether the last error was only a warning (`tjGetErrorCode` == `TJERR_WARNING`).
    var lastErrorIsWarning: Bool { tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue) }

    /// Compresses 4:2:0 planes (`tjCompressFromYUVPlanes`).
    func compressYUV420(
        y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>,
        strides: (Int, Int, Int), width: Int, height: Int, quality: Int
    ) throws -> TJBuffer {
        var planes: [UnsafePointer<UInt8>?] = [y, u, v]
        var strideArray: [Int32] = [Int32(strides.0), Int32(strides.1), Int32(strides.2)]
        var (output, size) = TJHandle.preallocate(width: width, height: height)
        let status = tjCompressFromYUVPlanes(
            raw, &planes, Int32(width), &strideArray, Int32(height),
            Int32(TJSAMP_420.rawValue), &output, &size, Int32(quality), 0)
        return try finish(status: status, output: output, size: size)
    }

    /// Compresses packed pixels (`tjCompress2`) to 4:2:0.
    func compressPacked(
        _ pixels: UnsafePointer<UInt8>, width: Int, stride: Int, height: Int,
        pixelFormat: TJPF, quality: Int, subsampling: TJSAMP = TJSAMP_420
    ) throws -> TJBuffer {
        var (output, size) = TJHandle.preallocate(width: width, height: height)
        let status = tjCompress2(
            raw, pixels, Int32(width), Int32(stride), Int32(height),
            Int32(pixelFormat.rawValue), &output, &size, Int32(subsampling.rawValue),
            Int32(quality), 0)
        return try finish(status: status, output: output, size: size)
    }

    /// An output buffer big enough for a typical high-quality photo (half a byte per pixel),
    /// so TurboJPEG rarely has to grow it by copying; it still grows when needed. Pages
    /// that are never written cost no memory.
    private static func preallocate(width: Int, height: Int) -> (UnsafeMutablePointer<UInt8>?, UInt) {
        let bytes = max(16_384, width * height / 2)
        guard bytes < Int(Int32.max), let buffer = tjAlloc(Int32(bytes)) else { return (nil, 0) }
        return (buffer, UInt(bytes))
    }

    private func finish(status: Int32, output: UnsafeMutablePointer<UInt8>?, size: UInt) throws -> TJBuffer {
        guard status == 0, let output else {
            let message = errorMessage
            if let output { tjFree(output) }
            throw ImagingError.encodeFailed(detail: message)
        }
        return TJBuffer(base: output, count: Int(size))
    }
}

extension TJHandle {
    /// The subsampling `header` reports for 4:2:0 (`TJSAMP_420`).
    static let subsampling420 = Int(TJSAMP_420.rawValue)

    /// The frame size and subsampling of a JPEG (`tjDecompressHeader3`).
    func header(_ jpeg: UnsafeBufferPointer<UInt8>) throws -> (width: Int, height: Int, subsampling: Int) {
        var width: Int32 = 0, height: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            raw, jpeg.baseAddress, UInt(jpeg.count), &width, &height, &subsamp, &colorspace)
        // Warnings (such as extraneous bytes before a marker) still give a usable header.
        guard status == 0 || (lastErrorIsWarning && width > 0 && height > 0) else {
            throw ImagingError.decodeFailed(detail: errorMessage)
        }
        return (Int(width), Int(height), Int(subsamp))
    }

    /// Decodes to packed RGB at `width`×`height`, one of the JPEG's scaled sizes
    /// (`tjDecompress2`). `fast` trades exactness for speed (`TJFLAG_FASTDCT`,
    /// `TJFLAG_FASTUPSAMPLE`), as previews may. Warnings other than a premature end are tolerated.
    func decodeRGB(_ jpeg: UnsafeBufferPointer<UInt8>, width: Int, height: Int, fast: Bool = false) throws
        -> [UInt8]
    {
        var status: Int32 = 0
        let flags = fast ? Int32(TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE) : 0
        // tjDecompress2 writes every row unless it fails, and then the array is discarded.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, count in
            status = tjDecompress2(
                raw, jpeg.baseAddress, UInt(jpeg.count), out.baseAddress, Int32(width),
                Int32(width * 3), Int32(height), Int32(TJPF_RGB.rawValue), flags)
            count = width * height * 3
        }
        try check(status)
        return pixels
    }

    /// Decodes a 4:2:0 JPEG to its Y, Cb and Cr planes at `width`×`height`, one of its
    /// scaled sizes (`tjDecompressToYUVPlanes` with `TJFLAG_FASTDCT`): no upsampling and no
    /// colour conversion, which a thumbnail does once per output pixel instead.
    func decodeYUV420(_ jpeg: UnsafeBufferPointer<UInt8>, width: Int, height: Int) throws -> RawImage {
        let subsampling = Int32(TJSAMP_420.rawValue)
        let widths = (0..<3).map { Int(tjPlaneWidth(Int32($0), Int32(width), subsampling)) }
        let heights = (0..<3).map { Int(tjPlaneHeight(Int32($0), Int32(height), subsampling)) }
        guard widths.allSatisfy({ $0 > 0 }), heights.allSatisfy({ $0 > 0 }) else {
            throw ImagingError.decodeFailed(detail: "no 4:2:0 planes for \(width)x\(height)")
        }
        var y = [UInt8](repeating: 0, count: widths[0] * heights[0])
        var u = [UInt8](repeating: 0, count: widths[1] * heights[1])
        var v = [UInt8](repeating: 0, count: widths[2] * heights[2])
        var strides = widths.map { Int32($0) }
        let status = y.withUnsafeMutableBufferPointer { y in
            u.withUnsafeMutableBufferPointer { u in
                v.withUnsafeMutableBufferPointer { v in
                    var pointers: [UnsafeMutablePointer<UInt8>?] = [
                        y.baseAddress, u.baseAddress, v.baseAddress,
                    ]
                    return tjDecompressToYUVPlanes(
                        raw, jpeg.baseAddress, UInt(jpeg.count), &pointers, Int32(width), &strides,
                        Int32(height), Int32(TJFLAG_FASTDCT))
                }
            }
        }
        try check(status)
        return RawImage(
            format: .yuv420, width: width, height: height,
            planes: [
                ImagePlane(bytes: y, stride: widths[0]), ImagePlane(bytes: u, stride: widths[1]),
                ImagePlane(bytes: v, stride: widths[2]),
            ])
    }

    /// Throws the error of a failed decode; warnings other than a premature end are tolerated.
    private func check(_ status: Int32) throws {
        guard status != 0 else { return }
        let message = errorMessage
        if message.contains("Premature end") || message.contains("premature end") {
            throw ImagingError.truncatedJPEG(detail: "the image data ends early (\(message))")
        }
        if !lastErrorIsWarning { throw ImagingError.decodeFailed(detail: message) }
    }
}

/// libjpeg-turbo's decode-time scaling factors (`tjGetScalingFactors`), largest first.
enum TJScaling {
    static let factors: [(num: Int, denom: Int)] = {
        var count: Int32 = 0
        guard let list = tjGetScalingFactors(&count) else { return [(1, 1)] }
        return (0..<Int(count)).map { (Int(list[$0].num), Int(list[$0].denom)) }
            .sorted { Double($0.num) / Double($0.denom) > Double($1.num) / Double($1.denom) }
    }()

    /// `size` scaled by a factor, rounded up as libjpeg-turbo does (TJSCALED).
    static func scaled(_ size: Int, _ factor: (num: Int, denom: Int)) -> Int {
        (size * factor.num + factor.denom - 1) / factor.denom
    }
}

extension TJHandle {
    /// One lossless transform (`tjTransform`) with `op` (a `TJXOP`), optional crop and
    /// `TJXOPT_*` options. The crop region is in the transformed image's coordinates.
    func transform(_ jpeg: [UInt8], op: TJXOP, crop: PixelRect?, options: Int32) throws -> [UInt8] {
        var transform = tjtransform()
        transform.op = Int32(op.rawValue)
        transform.options = options
        if let crop {
            transform.options |= TJXOPT_CROP
            transform.r = tjregion(
                x: Int32(crop.x), y: Int32(crop.y), w: Int32(crop.width), h: Int32(crop.height))
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = jpeg.withUnsafeBufferPointer { input in
            tjTransform(raw, input.baseAddress, UInt(input.count), 1, &output, &size, &transform, 0)
        }
        guard status == 0, let output else {
            let message = errorMessage
            if let output { tjFree(output) }
            throw ImagingError.decodeFailed(detail: "lossless transform failed: \(message)")
        }
        return TJBuffer(base: output, count: Int(size)).array
    }
}

/// The iMCU size of a JPEG (`tjMCUWidth`/`tjMCUHeight` for its subsampling).
func mcuSize(of jpeg: [UInt8]) throws -> (width: Int, height: Int) {
    let handle = try TJHandle(.decompress)
    let subsamp = try jpeg.withUnsafeBufferPointer { try handle.header($0).subsampling }
    // MCU sizes of TJSAMP_444, 422, 420, GRAY, 440 and 411, in that order.
    let widths: [Int] = [8, 16, 16, 8, 8, 32], heights: [Int] = [8, 8, 16, 8, 16, 8]
    guard subsamp >= 0, Int(subsamp) < widths.count else { return (16, 16) }
    return (widths[Int(subsamp)], heights[Int(subsamp)])
}
