// Lossless rotate, flip and crop of a JPEG with tjTransform, with its EXIF rewritten to match.

import CTurboJPEG
import PinholeCore

/// Lossless JPEG edits: the DCT coefficients are rearranged, never re-quantised.
///
/// Every result is upright: the photo's EXIF orientation is folded into the same single
/// transform, the Orientation tag becomes 1, PixelX/YDimension are updated and the IFD1
/// thumbnail is re-rendered. All other metadata is kept. Partial MCU blocks at the edges
/// that cannot move losslessly are trimmed (as `jpegtran -trim`), so a rotated 4056×3040
/// photo may lose up to 15 pixels on a side.
public enum LosslessTransform {
    /// The photo as displayed, turned a further `degrees` clockwise (a multiple of 90).
    /// - Throws: `ImagingError.invalidParameter` for other angles, `.decodeFailed` when
    ///   libjpeg-turbo cannot transform the file, or any error of reading its header.
    public static func rotate(_ jpeg: [UInt8], degrees: Int) throws -> [UInt8] {
        guard degrees % 90 == 0 else {
            throw ImagingError.invalidParameter(
                detail: "lossless rotation must be a multiple of 90°, not \(degrees)°")
        }
        let metadata = try ExifReader.read(jpeg: jpeg)
        let turn = Orientation(mountRotation: degrees)
        return try apply(jpeg, metadata: metadata, steps: [metadata.orientation, turn], crop: nil)
    }

    /// The photo as displayed, mirrored left to right.
    public static func flipHorizontally(_ jpeg: [UInt8]) throws -> [UInt8] {
        let metadata = try ExifReader.read(jpeg: jpeg)
        return try apply(jpeg, metadata: metadata, steps: [metadata.orientation, .upMirrored], crop: nil)
    }

    /// The photo upright (orientation applied to the pixels, tag reset to 1).
    public static func upright(_ jpeg: [UInt8]) throws -> [UInt8] {
        let metadata = try ExifReader.read(jpeg: jpeg)
        return try apply(jpeg, metadata: metadata, steps: [metadata.orientation], crop: nil)
    }

    /// The part `rect` (in displayed, upright coordinates) of the photo. Its top-left corner
    /// is moved up and left to the nearest MCU boundary, as lossless cropping requires; use
    /// `alignedCrop` to know the exact region you will get.
    /// - Throws: `ImagingError.invalidParameter` when `rect` is empty or outside the image.
    public static func crop(_ jpeg: [UInt8], rect: PixelRect) throws -> [UInt8] {
        let metadata = try ExifReader.read(jpeg: jpeg)
        return try apply(jpeg, metadata: metadata, steps: [metadata.orientation], crop: rect)
    }

    /// The region `crop` will actually keep for `rect` in a JPEG with iMCU size `mcu`.
    public static func alignedCrop(_ rect: PixelRect, mcu: (width: Int, height: Int), bounds: PixelSize)
        throws -> PixelRect
    {
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0,
            rect.x + rect.width <= bounds.width, rect.y + rect.height <= bounds.height
        else {
            throw ImagingError.invalidParameter(
                detail: "crop \(rect) is empty or outside the \(bounds) image")
        }
        let x = rect.x / mcu.width * mcu.width, y = rect.y / mcu.height * mcu.height
        return PixelRect(x: x, y: y, width: rect.x + rect.width - x, height: rect.y + rect.height - y)
    }

    private static func apply(
        _ jpeg: [UInt8], metadata: PhotoMetadata, steps: [Orientation], crop: PixelRect?
    ) throws
        -> [UInt8]
    {
        let orientation = compose(steps)
        let handle = try TJHandle(.transform)
        var region: PixelRect?
        if let crop {
            let stored = try JPEGDecoder.header(jpeg)
            let upright = OrientationTransform.displaySize(stored, orientation)
            // Align to the larger MCU side on both axes: valid whether or not the op transposes.
            let mcu = try mcuSize(of: jpeg)
            let side = max(mcu.width, mcu.height)
            region = try alignedCrop(crop, mcu: (side, side), bounds: upright)
        }
        let transformed = try handle.transform(
            jpeg, op: op(for: orientation), crop: region,
            options: TJXOPT_TRIM | TJXOPT_COPYNONE)
        let size = try JPEGDecoder.header(transformed)
        var updated = metadata
        updated.orientation = .up
        updated.pixelWidth = size.width
        updated.pixelHeight = size.height
        let small = try JPEGDecoder.decode(transformed, fittingIn: PhotoEncoder.thumbnailSize)
        let thumbnail = try PhotoEncoder.exifThumbnail(of: small)
        return try ExifWriter.embed(updated, thumbnail: thumbnail, into: transformed)
    }

    /// The single orientation equal to applying `steps` in order (each step turns the image
    /// as that orientation would for display), found on a tiny asymmetric image.
    static func compose(_ steps: [Orientation]) -> Orientation {
        let probe = RawImage(
            format: .rgb888, width: 3, height: 2,
            planes: [ImagePlane(bytes: (0..<18).map { UInt8($0) }, stride: 9)])
        let target = steps.reduce(probe) { OrientationTransform.apply($1, to: $0) }
        return Orientation.allCases.first {
            let candidate = OrientationTransform.apply($0, to: probe)
            return candidate.width == target.width && candidate.planes[0].bytes == target.planes[0].bytes
        }!
    }

    /// The tjTransform operation that turns pixels stored with `orientation` upright.
    static func op(for orientation: Orientation) -> TJXOP {
        switch orientation {
        case .up: return TJXOP_NONE
        case .upMirrored: return TJXOP_HFLIP
        case .down: return TJXOP_ROT180
        case .downMirrored: return TJXOP_VFLIP
        case .leftMirrored: return TJXOP_TRANSPOSE
        case .right: return TJXOP_ROT90
        case .rightMirrored: return TJXOP_TRANSVERSE
        case .left: return TJXOP_ROT270
        }
    }
}
