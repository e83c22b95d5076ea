// Renders an edit: decode, turn upright, apply exposure/contrast/vignette, encode.

import PinholeCore

/// Renders adjusted photos from their original JPEG.
public enum EditRenderer {
    /// The photo upright (per `orientation`), adjusted, as a JPEG. With `maxSize`, the result
    /// is scaled (decode-time scaling first) to fit inside it.
    /// - Throws: `ImagingError` for a bad JPEG.
    public static func render(
        jpeg: [UInt8], adjustments: Adjustments, orientation: Orientation,
        maxSize: PixelSize? = nil, quality: Int = 93
    ) throws -> [UInt8] {
        var image: RawImage
        if let maxSize {
            image = try Thumbnailer.renderPixels(
                jpeg: jpeg, size: maxSize, mode: .aspectFit, orientation: orientation)
        } else {
            image = OrientationTransform.apply(orientation, to: try JPEGDecoder.decode(jpeg))
        }
        image = apply(adjustments, to: image)
        return try JPEGEncoder(quality: quality).encode(image)
    }

    /// `image` (converted to RGB888 if needed) with `adjustments` applied.
    public static func apply(_ adjustments: Adjustments, to image: RawImage) -> RawImage {
        let rgb =
            image.format == .rgb888
            ? image : Resampler.render(image, canvas: PixelSize(width: image.width, height: image.height))
        if adjustments.isIdentity { return rgb }
        let lut = toneCurve(adjustments)
        let w = rgb.width, h = rgb.height, stride = rgb.planes[0].stride
        let strength = adjustments.vignette
        let cx = Double(w - 1) / 2, cy = Double(h - 1) / 2
        let corner = (cx * cx + cy * cy).squareRoot()
        var out = [UInt8](repeating: 0, count: w * h * 3)
        rgb.planes[0].bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let dy = Double(y) - cy
                    for x in 0..<w {
                        let s = y * stride + x * 3, d = (y * w + x) * 3
                        var factor = 1.0
                        if strength > 0 {
                            let dx = Double(x) - cx
                            let r = corner > 0 ? (dx * dx + dy * dy).squareRoot() / corner : 0
                            // Untouched inside half the radius, smoothly darker to the corners.
                            let t = min(1, max(0, (r - 0.5) / 0.5))
                            factor = 1 - strength * 0.8 * t * t * (3 - 2 * t)
                        }
                        for c in 0..<3 {
                            let v = Double(lut[Int(src[s + c])]) * factor
                            dst[d + c] = UInt8(min(255, max(0, v.rounded())))
                        }
                    }
                }
            }
        }
        return RawImage(format: .rgb888, width: w, height: h, planes: [ImagePlane(bytes: out, stride: w * 3)])
    }

    /// Exposure (in linear light) then contrast (around mid-grey, in sRGB), as a 256-entry table.
    static func toneCurve(_ adjustments: Adjustments) -> [UInt8] {
        let gain = pow2(adjustments.exposure)
        let slope = 1 + adjustments.contrast
        return (0..<256).map { value in
            var v = linearToSRGB(sRGBToLinear(Double(value) / 255) * gain)
            v = (v - 0.5) * slope + 0.5
            return UInt8(min(255, max(0, (v * 255).rounded())))
        }
    }

    static func sRGBToLinear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : power((v + 0.055) / 1.055, 2.4)
    }

    static func linearToSRGB(_ v: Double) -> Double {
        let c = min(1, max(0, v))
        return c <= 0.003_130_8 ? c * 12.92 : 1.055 * power(c, 1 / 2.4) - 0.055
    }

    /// 2^x without Foundation.
    static func pow2(_ x: Double) -> Double { power(2, x) }

    /// a^b for a > 0 (exp(b·ln a)), via the C library.
    static func power(_ a: Double, _ b: Double) -> Double { a <= 0 ? 0 : cPow(a, b) }
}
