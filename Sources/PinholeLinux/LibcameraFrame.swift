// A completed libcamera request as a CameraFrame: copies pixels out of the mapped buffers on demand.

import PinholeCore

/// A frame from libcamera. Its buffers stay mapped and unqueued until `release()`.
final class LibcameraFrame: CameraFrame, @unchecked Sendable {
    let metadata: FrameMetadata
    private let device: LibcameraDevice
    private let request: CompletedRequest
    private let still: LibcameraFormat
    private let stillSize: PixelSize
    private let stillStride: Int
    private let viewfinder: LibcameraFormat?
    private let viewfinderSize: PixelSize
    private let viewfinderStride: Int
    private let video: VideoSource?
    private var released = false

    /// Where the video frames come from: the video stream (`format` set), else the still stream.
    struct VideoSource {
        /// The video stream's format; nil: no video stream, the still stream is scaled.
        var format: LibcameraFormat?
        /// The video stream's size as configured.
        var streamSize: PixelSize
        /// Its stride.
        var stride: Int
        /// The size the encoder takes.
        var size: PixelSize
    }

    init(
        device: LibcameraDevice, request: CompletedRequest, still: LibcameraFormat, stillSize: PixelSize,
        stillStride: Int, viewfinder: LibcameraFormat?, viewfinderSize: PixelSize, viewfinderStride: Int,
        video: VideoSource? = nil
    ) {
        self.video = video
        self.device = device
        self.request = request
        self.metadata = request.metadata
        self.still = still
        self.stillSize = stillSize
        self.stillStride = stillStride
        self.viewfinder = viewfinder
        self.viewfinderSize = viewfinderSize
        self.viewfinderStride = viewfinderStride
    }

    func stillImage() throws -> RawImage {
        try Self.copy(request.still, format: still, size: stillSize, stride: stillStride)
    }

    func viewfinderImage() throws -> RawImage? {
        if let viewfinder, !request.viewfinder.isEmpty {
            return try Self.copy(
                request.viewfinder, format: viewfinder, size: viewfinderSize, stride: viewfinderStride)
        }
        // No viewfinder stream: scale the video stream down where there is one, else the still.
        let image = try videoStreamImage() ?? stillImage()
        return image.subsampled(toWidthAtMost: 640)
    }

    /// The video stream's image as the encoder takes it (YUV 4:2:0 at the video size), from the
    /// video stream or, where the camera runs none beside the still stream, from the still.
    /// Called on the recorder's lane while the frame is held.
    func videoImage() throws -> RawImage? {
        guard let video else { return nil }
        return try (videoStreamImage() ?? stillImage()).videoFrame(size: video.size)
    }

    private func videoStreamImage() throws -> RawImage? {
        guard let video, let format = video.format, !request.video.isEmpty else { return nil }
        return try Self.copy(request.video, format: format, size: video.streamSize, stride: video.stride)
    }

    /// Holders besides the capture machine (the recorder's lane reading the video stream).
    private var keepers = 0

    func keep() -> () -> Void {
        keepers += 1
        var done = false
        return { [self] in
            guard !done else { return }
            done = true
            keepers -= 1
            if released, keepers == 0 { giveBack() }
        }
    }

    func release() {
        guard !released else { return }
        released = true
        if keepers == 0 { giveBack() }
    }

    private func giveBack() {
        device.released(request: request.request, generation: request.generation)
    }

    /// Copies mapped planes into a RawImage, splitting a single-plane YUV buffer and swapping
    /// red and blue where the libcamera format's byte order is the other way round.
    static func copy(_ planes: [MappedPlane], format: LibcameraFormat, size: PixelSize, stride: Int) throws
        -> RawImage
    {
        guard let first = planes.first else { throw CameraError.failed("a camera buffer had no planes") }
        let height = size.height
        let chromaHeight = (height + 1) / 2
        var layout: [(plane: Int, offset: Int, stride: Int, rows: Int)]
        switch format.pixelFormat {
        case .yuv420:
            let chromaStride = stride / 2
            if planes.count >= 3 {
                layout = [
                    (0, 0, stride, height), (1, 0, chromaStride, chromaHeight),
                    (2, 0, chromaStride, chromaHeight),
                ]
            } else {
                let u = stride * height
                layout = [
                    (0, 0, stride, height), (0, u, chromaStride, chromaHeight),
                    (0, u + chromaStride * chromaHeight, chromaStride, chromaHeight),
                ]
            }
        case .nv12:
            layout =
                planes.count >= 2
                ? [(0, 0, stride, height), (1, 0, stride, chromaHeight)]
                : [(0, 0, stride, height), (0, stride * height, stride, chromaHeight)]
        case .rgb888, .xrgb8888:
            layout = [(0, 0, stride, height)]
        }
        var out: [ImagePlane] = []
        for part in layout {
            let source = planes[min(part.plane, planes.count - 1)].bytes
            let count = part.stride * part.rows
            guard part.offset + count <= source.count else {
                throw CameraError.failed(
                    "a camera buffer is smaller than its format needs (\(format.name) \(size))")
            }
            var bytes = [UInt8](UnsafeRawBufferPointer(rebasing: source[part.offset..<(part.offset + count)]))
            if format.swapRedBlue { swapRedBlue(&bytes, pixelBytes: format.pixelFormat == .rgb888 ? 3 : 4) }
            out.append(ImagePlane(bytes: bytes, stride: part.stride))
        }
        _ = first
        return RawImage(format: format.pixelFormat, width: size.width, height: size.height, planes: out)
    }

    private static func swapRedBlue(_ bytes: inout [UInt8], pixelBytes: Int) {
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index + 2 < buffer.count {
                buffer.swapAt(index, index + 2)
                index += pixelBytes
            }
        }
    }
}

extension RawImage {
    /// Every k-th pixel (nearest neighbour), so that the result is at most `limit` wide.
    func subsampled(toWidthAtMost limit: Int) -> RawImage {
        let factor = max(1, (width + limit - 1) / limit)
        guard factor > 1 else { return self }
        let newWidth = width / factor
        let newHeight = height / factor
        func sample(_ plane: ImagePlane, bytesPerPixel: Int, columns: Int, rows: Int, step: Int) -> ImagePlane
        {
            var bytes = [UInt8](repeating: 0, count: columns * rows * bytesPerPixel)
            for row in 0..<rows {
                for column in 0..<columns {
                    for byte in 0..<bytesPerPixel {
                        let source = row * step * plane.stride + column * step * bytesPerPixel + byte
                        if source < plane.bytes.count {
                            bytes[(row * columns + column) * bytesPerPixel + byte] = plane.bytes[source]
                        }
                    }
                }
            }
            return ImagePlane(bytes: bytes, stride: columns * bytesPerPixel)
        }
        switch format {
        case .yuv420:
            let luma = sample(planes[0], bytesPerPixel: 1, columns: newWidth, rows: newHeight, step: factor)
            let u = sample(
                planes[1], bytesPerPixel: 1, columns: (newWidth + 1) / 2, rows: (newHeight + 1) / 2,
                step: factor)
            let v = sample(
                planes[2], bytesPerPixel: 1, columns: (newWidth + 1) / 2, rows: (newHeight + 1) / 2,
                step: factor)
            return RawImage(format: .yuv420, width: newWidth, height: newHeight, planes: [luma, u, v])
        case .nv12:
            let luma = sample(planes[0], bytesPerPixel: 1, columns: newWidth, rows: newHeight, step: factor)
            let uv = sample(
                planes[1], bytesPerPixel: 2, columns: (newWidth + 1) / 2, rows: (newHeight + 1) / 2,
                step: factor)
            return RawImage(format: .nv12, width: newWidth, height: newHeight, planes: [luma, uv])
        case .rgb888, .xrgb8888:
            let pixel = format == .rgb888 ? 3 : 4
            let plane = sample(
                planes[0], bytesPerPixel: pixel, columns: newWidth, rows: newHeight, step: factor)
            return RawImage(format: format, width: newWidth, height: newHeight, planes: [plane])
        }
    }
}
