// Raw image buffers as cameras deliver them: planar YUV 4:2:0, NV12 and RGB.

/// Pixel layouts Pinhole handles.
public enum PixelFormat: String, Sendable, Codable, CaseIterable {
    /// Planar Y, U, V; chroma subsampled 2×2 (I420 / YUV420).
    case yuv420
    /// Y plane, then interleaved UV; chroma subsampled 2×2.
    case nv12
    /// Packed 8-bit R, G, B.
    case rgb888
    /// Packed 8-bit X, R, G, B in memory order B, G, R, X (libcamera XRGB8888).
    case xrgb8888
}

/// One image plane.
public struct ImagePlane: Sendable {
    /// Bytes of the plane.
    public var bytes: [UInt8]
    /// Bytes from one row to the next.
    public var stride: Int

    /// Creates a plane.
    public init(bytes: [UInt8], stride: Int) {
        self.bytes = bytes
        self.stride = stride
    }
}

/// A raw image: format, size and planes (one for packed formats, two for NV12, three for YUV420).
public struct RawImage: Sendable {
    /// Pixel format.
    public var format: PixelFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Planes in format order.
    public var planes: [ImagePlane]

    /// Creates an image.
    public init(format: PixelFormat, width: Int, height: Int, planes: [ImagePlane]) {
        self.format = format
        self.width = width
        self.height = height
        self.planes = planes
    }

    /// A planar YUV 4:2:0 image filled by `body`, which is called once per plane with the
    /// plane's width, height and a buffer to fill.
    public static func yuv420(
        width: Int, height: Int,
        fill: (
            _ plane: Int, _ width: Int, _ height: Int,
            _ buffer: inout [UInt8]
        ) -> Void
    ) -> RawImage {
        let cw = (width + 1) / 2
        let ch = (height + 1) / 2
        var planes: [ImagePlane] = []
        for (index, (w, h)) in [(width, height), (cw, ch), (cw, ch)].enumerated() {
            var bytes = [UInt8](repeating: 0, count: w * h)
            fill(index, w, h, &bytes)
            planes.append(ImagePlane(bytes: bytes, stride: w))
        }
        return RawImage(format: .yuv420, width: width, height: height, planes: planes)
    }
}

/// A width and height in pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A readable form, for messages and logs.
    public var description: String { "\(width)x\(height)" }
}
