// Turns stored pixels upright for display according to the EXIF orientation (all eight cases).

import PinholeCore

/// Applies EXIF orientations to pixels. Capture never calls this; everything that renders does.
public enum OrientationTransform {
    /// The display size of a stored image of `size` under `orientation`.
    public static func displaySize(_ size: PixelSize, _ orientation: Orientation) -> PixelSize {
        orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }

    /// The stored pixel (x, y) shown at display position (dx, dy) of an image stored `width` ×
    /// `height` with `orientation`.
    @inline(__always)
    public static func sourcePixel(
        displayX dx: Int, displayY dy: Int, width: Int, height: Int,
        orientation: Orientation
    ) -> (x: Int, y: Int) {
        switch orientation {
        case .up: return (dx, dy)
        case .upMirrored: return (width - 1 - dx, dy)
        case .down: return (width - 1 - dx, height - 1 - dy)
        case .downMirrored: return (dx, height - 1 - dy)
        case .leftMirrored: return (dy, dx)
        case .right: return (dy, height - 1 - dx)
        case .rightMirrored: return (width - 1 - dy, height - 1 - dx)
        case .left: return (width - 1 - dy, dx)
        }
    }

    /// `image` turned upright for display, as tightly packed RGB888. Other formats are
    /// converted to RGB first. `.up` returns RGB input unchanged.
    public static func apply(_ orientation: Orientation, to image: RawImage) -> RawImage {
        let rgb =
            image.format == .rgb888
            ? image : Resampler.render(image, canvas: PixelSize(width: image.width, height: image.height))
        if orientation == .up { return rgb }
        let w = rgb.width, h = rgb.height
        let size = displaySize(PixelSize(width: w, height: h), orientation)
        let stride = rgb.planes[0].stride
        var out = [UInt8](repeating: 0, count: size.width * size.height * 3)
        rgb.planes[0].bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for dy in 0..<size.height {
                    var o = dy * size.width * 3
                    for dx in 0..<size.width {
                        let s = sourcePixel(
                            displayX: dx, displayY: dy, width: w, height: h, orientation: orientation)
                        let i = s.y * stride + s.x * 3
                        dst[o] = src[i]
                        dst[o + 1] = src[i + 1]
                        dst[o + 2] = src[i + 2]
                        o += 3
                    }
                }
            }
        }
        return RawImage(
            format: .rgb888, width: size.width, height: size.height,
            planes: [ImagePlane(bytes: out, stride: size.width * 3)])
    }
}
