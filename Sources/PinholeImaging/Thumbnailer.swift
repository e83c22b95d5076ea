// Thumbnails and previews of a JPEG at a requested size and content mode, orientation applied.

import PinholeCore

/// How an image is scaled into a requested size.
public enum ContentMode: String, Sendable, Codable {
    /// The whole image, scaled to fit inside the size (the result may be smaller on one side).
    case aspectFit
    /// The size filled exactly, the image scaled to cover it and centred, overflow cropped.
    case aspectFill
}

/// Renders thumbnails and previews fast: decode-time scaling to the smallest libjpeg-turbo
/// scale that still covers the target, area-averaged down to the exact size, then turned
/// upright. The embedded EXIF thumbnail is used when it is big enough and not letterboxed.
public enum Thumbnailer {
    /// A JPEG of `jpeg` upright (per `orientation`) at `size` in display orientation.
    /// - Throws: `ImagingError` for a bad JPEG or a size that is not positive.
    public static func render(
        jpeg: [UInt8], size: PixelSize, mode: ContentMode, orientation: Orientation,
        quality: Int = 85
    ) throws -> [UInt8] {
        let pixels = try renderPixels(jpeg: jpeg, size: size, mode: mode, orientation: orientation)
        return try JPEGEncoder(quality: quality, threads: 1).encode(pixels)
    }

    /// The same as `render`, as upright RGB888 pixels (for the console preview and edits).
    public static func renderPixels(
        jpeg: [UInt8], size: PixelSize, mode: ContentMode,
        orientation: Orientation
    ) throws -> RawImage {
        guard size.width > 0, size.height > 0, size.width <= 65_500, size.height <= 65_500 else {
            throw ImagingError.invalidParameter(detail: "thumbnail size \(size) must be positive")
        }
        let stored = try JPEGDecoder.header(jpeg)
        // Work in stored orientation, then turn the small result upright.
        let storedTarget = OrientationTransform.displaySize(size, orientation)  // the swap is its own inverse
        let outputSize: PixelSize
        switch mode {
        case .aspectFit:
            let rect = Resampler.fitRect(stored, in: storedTarget)
            outputSize = PixelSize(width: rect.width, height: rect.height)
        case .aspectFill:
            outputSize = storedTarget
        }
        let decoded =
            try embeddedThumbnail(jpeg, stored: stored, covering: outputSize)
            ?? JPEGDecoder.decodePreview(jpeg, fittingIn: outputSize)
        let decodedSize = PixelSize(width: decoded.width, height: decoded.height)
        let source = mode == .aspectFill ? Resampler.fillSource(decodedSize, for: outputSize) : nil
        let small = Resampler.render(decoded, source: source, canvas: outputSize)
        return OrientationTransform.apply(orientation, to: small)
    }

    /// The EXIF thumbnail decoded, when it has the photo's aspect ratio and covers `target`.
    private static func embeddedThumbnail(_ jpeg: [UInt8], stored: PixelSize, covering target: PixelSize)
        throws
        -> RawImage?
    {
        guard target.width <= PhotoEncoder.thumbnailSize.width,
            target.height <= PhotoEncoder.thumbnailSize.height,
            let thumbnail = try? ExifReader.thumbnail(jpeg: jpeg),
            let size = try? JPEGDecoder.header(thumbnail),
            size.width >= target.width, size.height >= target.height,
            abs(Double(size.width) / Double(size.height) - Double(stored.width) / Double(stored.height))
                < 0.01
        else { return nil }
        return try? JPEGDecoder.decode(thumbnail, pixelLimit: 1_000_000)
    }
}
