// JPEG decoding with libjpeg-turbo, scaled at decode time, with clear errors for bad input.

import PinholeCore

/// Decodes JPEGs to RGB888.
public enum JPEGDecoder {
    /// Largest image, in pixels, `decode` will allocate for (a 100 MP photo).
    public static let defaultPixelLimit = 100_000_000

    /// The stored pixel size of a JPEG, from its frame header.
    /// - Throws: `ImagingError.notJPEG`, `.truncatedJPEG` or `.malformedJPEG`.
    public static func header(_ jpeg: [UInt8]) throws -> PixelSize {
        let layout = try JPEGLayout(jpeg)
        return PixelSize(width: layout.width, height: layout.height)
    }

    /// Decodes `jpeg` to RGB888. With `fittingIn`, decodes at the smallest libjpeg-turbo
    /// scale (1/8…2) whose result still covers the target in both dimensions (or full size if
    /// none does), which is far faster than a full decode for thumbnails.
    /// - Throws: `ImagingError.notJPEG`, `.truncatedJPEG`, `.malformedJPEG`, `.decodeFailed`,
    ///   `.imageTooLarge` when the result would exceed `pixelLimit` pixels, or the stored
    ///   image 4 × `pixelLimit`.
    public static func decode(
        _ jpeg: [UInt8], fittingIn target: PixelSize? = nil,
        pixelLimit: Int = defaultPixelLimit
    ) throws -> RawImage {
        try decode(jpeg, fittingIn: target, pixelLimit: pixelLimit, preview: false)
    }

    /// Decodes `jpeg` for a preview or thumbnail of `target`: scaled as `decode` does, with
    /// libjpeg-turbo's fast IDCT; a 4:2:0 JPEG comes back as its `.yuv420` planes (no
    /// upsampling, no colour conversion: `Resampler` converts each output pixel once),
    /// others as RGB888 with fast upsampling. Throws what `decode` throws.
    public static func decodePreview(
        _ jpeg: [UInt8], fittingIn target: PixelSize, pixelLimit: Int = defaultPixelLimit
    ) throws -> RawImage {
        try decode(jpeg, fittingIn: target, pixelLimit: pixelLimit, preview: true)
    }

    private static func decode(
        _ jpeg: [UInt8], fittingIn target: PixelSize?, pixelLimit: Int, preview: Bool
    ) throws -> RawImage {
        let layout = try JPEGLayout(jpeg)
        guard layout.components == 1 || layout.components == 3 else {
            throw ImagingError.decodeFailed(
                detail: "\(layout.components) colour components (CMYK?) are not supported")
        }
        let size = chooseScale(width: layout.width, height: layout.height, target: target)
        // libjpeg-turbo's working memory follows the stored size (whole-image coefficient
        // buffers for progressive files), so a scaled decode may read at most 4× the limit.
        guard size.width * size.height <= pixelLimit, layout.width * layout.height <= 4 * pixelLimit else {
            throw ImagingError.imageTooLarge(width: layout.width, height: layout.height, limit: pixelLimit)
        }
        let handle = try TJHandle(.decompress)
        return try jpeg.withUnsafeBufferPointer { buffer in
            let header = try handle.header(buffer)
            guard header.width == layout.width, header.height == layout.height else {
                throw ImagingError.malformedJPEG(detail: "frame header size disagrees with libjpeg-turbo")
            }
            if preview && header.subsampling == TJHandle.subsampling420 && layout.components == 3 {
                return try handle.decodeYUV420(buffer, width: size.width, height: size.height)
            }
            let pixels = try handle.decodeRGB(buffer, width: size.width, height: size.height, fast: preview)
            return RawImage(
                format: .rgb888, width: size.width, height: size.height,
                planes: [ImagePlane(bytes: pixels, stride: size.width * 3)])
        }
    }

    /// The decoded size for a target: the smallest scaled size ≥ target on both axes.
    public static func chooseScale(width: Int, height: Int, target: PixelSize?) -> PixelSize {
        guard let target else { return PixelSize(width: width, height: height) }
        var best = PixelSize(width: width, height: height)
        for factor in TJScaling.factors where factor.num <= factor.denom {
            let w = TJScaling.scaled(width, factor), h = TJScaling.scaled(height, factor)
            if w >= target.width && h >= target.height && w * h < best.width * best.height {
                best = PixelSize(width: w, height: h)
            }
        }
        return best
    }
}
