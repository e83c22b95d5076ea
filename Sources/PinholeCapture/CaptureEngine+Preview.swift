// The console's live preview: the newest frame's viewfinder image, rendered on demand.

import PinholeCore

extension CaptureEngine {
    /// The viewfinder image of the newest frame kept for zero shutter lag, rendered now (the
    /// console asks a few times a second; nothing is rendered when nobody asks). Nil when no
    /// camera is running, no frame has arrived yet, or the camera has no viewfinder stream.
    public func latestViewfinderImage() -> RawImage? {
        guard let frame = machine.newestFrame else { return nil }
        return try? frame.viewfinderImage()
    }

    /// How far the current camera is mounted rotated clockwise (0, 90, 180, 270).
    public var currentMountRotation: Int { currentFitting?.mountRotation ?? 0 }
}
