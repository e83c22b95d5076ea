// Any camera image as the encoder's planar YUV 4:2:0 at the video size (nearest neighbour, BT.601).

extension RawImage {
    /// This image as planar YUV 4:2:0 of `size`, for the video encoder: scaled by nearest
    /// neighbour, RGB converted with BT.601 limited-range coefficients (what H.264 players assume).
    /// A YUV 4:2:0 image already of that size is returned as it is.
    public func videoFrame(size: PixelSize) -> RawImage {
        if format == .yuv420, width == size.width, height == size.height { return self }
        let (outWidth, outHeight) = (max(1, size.width), max(1, size.height))
        let columns = (0..<outWidth).map { min(width - 1, $0 * width / outWidth) }
        let rows = (0..<outHeight).map { min(height - 1, $0 * height / outHeight) }
        switch format {
        case .yuv420, .nv12:
            return Self.yuv420(width: outWidth, height: outHeight) { plane, w, h, buffer in
                let chroma = plane > 0
                let source = planes[chroma && format == .nv12 ? 1 : plane]
                let step = chroma && format == .nv12 ? 2 : 1
                let offset = plane == 2 && format == .nv12 ? 1 : 0
                source.bytes.withUnsafeBufferPointer { bytes in
                    for y in 0..<h {
                        let row = (chroma ? rows[min(outHeight - 1, y * 2)] / 2 : rows[y]) * source.stride
                        for x in 0..<w {
                            let column = chroma ? columns[min(outWidth - 1, x * 2)] / 2 : columns[x]
                            let index = row + column * step + offset
                            buffer[y * w + x] = index < bytes.count ? bytes[index] : 128
                        }
                    }
                }
            }
        case .rgb888, .xrgb8888:
            // rgb888 is R, G, B in memory; xrgb8888 is B, G, R, X.
            let (pixel, red, blue) = format == .rgb888 ? (3, 0, 2) : (4, 2, 0)
            let source = planes[0]
            return Self.yuv420(width: outWidth, height: outHeight) { plane, w, h, buffer in
                source.bytes.withUnsafeBufferPointer { bytes in
                    for y in 0..<h {
                        let row = rows[plane == 0 ? y : min(outHeight - 1, y * 2)] * source.stride
                        for x in 0..<w {
                            let index = row + columns[plane == 0 ? x : min(outWidth - 1, x * 2)] * pixel
                            guard index + 2 < bytes.count else { continue }
                            let r = Int(bytes[index + red])
                            let g = Int(bytes[index + 1])
                            let b = Int(bytes[index + blue])
                            let value: Int
                            switch plane {
                            case 0: value = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16
                            case 1: value = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128
                            default: value = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128
                            }
                            buffer[y * w + x] = UInt8(clamping: value)
                        }
                    }
                }
            }
        }
    }
}
