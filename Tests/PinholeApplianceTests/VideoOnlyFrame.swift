// A hand-made frame with only a video image, for driving the recorder without a camera.

import Dispatch
import PinholeCapture
import PinholeCore

/// A frame exposed every 100 ms by sequence, whose blank video image says when it is taken.
final class VideoOnlyFrame: CameraFrame, @unchecked Sendable {
    let metadata: FrameMetadata
    let size: PixelSize
    /// Signalled each time the recorder's lane takes the video image.
    let taken = DispatchSemaphore(value: 0)

    init(_ sequence: UInt64, size: PixelSize) {
        self.size = size
        metadata = FrameMetadata(
            sequence: sequence, sensorTimestamp: Instant(nanoseconds: Int64(sequence) * 100_000_000),
            exposureTime: .milliseconds(10), analogueGain: 1)
    }

    func stillImage() throws -> RawImage { throw CaptureError.failed("no still stream") }
    func viewfinderImage() throws -> RawImage? { nil }
    func videoImage() throws -> RawImage? {
        taken.signal()
        return RawImage.yuv420(width: size.width, height: size.height) { _, _, _, _ in }
    }
    func release() {}
}
