// A frame from a simulated camera: metadata now, pixels rendered only when asked for.

import PinholeCore

/// A simulated frame. Pixels are rendered lazily, so that only the kept still costs a
/// full-resolution render and the simulated board stays responsive.
public final class SimulatedFrame: CameraFrame, @unchecked Sendable {
    /// What the frame was exposed with (time, exposure, gain, lens, AF state).
    public let metadata: FrameMetadata
    /// The scene as it was during the exposure.
    public let scene: SimScene
    /// The exposure and lens state it is rendered with.
    public let exposure: SimExposure
    private let stillSize: PixelSize
    private let viewfinderSize: PixelSize
    private let videoSize: PixelSize?
    private let cache: SimRenderCache?
    private let onRelease: () -> Void
    private var released = false

    init(
        metadata: FrameMetadata, scene: SimScene, exposure: SimExposure, stillSize: PixelSize,
        viewfinderSize: PixelSize, videoSize: PixelSize? = nil, cache: SimRenderCache? = nil,
        onRelease: @escaping () -> Void
    ) {
        self.cache = cache
        self.videoSize = videoSize
        self.metadata = metadata
        self.scene = scene
        self.exposure = exposure
        self.stillSize = stillSize
        self.viewfinderSize = viewfinderSize
        self.onRelease = onRelease
    }

    /// The full-resolution picture of this frame.
    public func stillImage() throws -> RawImage {
        SimRenderer.render(scene, size: stillSize, exposure: exposure, cache: cache)
    }

    /// Computed at half resolution (a quarter of the work) and scaled up: a viewfinder frame is
    /// what focus and scene watching read several times a second.
    public func viewfinderImage() throws -> RawImage? {
        SimRenderer.render(
            scene, size: viewfinderSize, exposure: exposure,
            workingWidth: max(160, viewfinderSize.width / 2), cache: cache)
    }

    /// The video stream's picture, rendered at the video size (never at the still size).
    public func videoImage() throws -> RawImage? {
        guard let videoSize else { return nil }
        return SimRenderer.render(scene, size: videoSize, exposure: exposure, cache: cache)
    }

    /// Gives the frame's buffers back to the camera.
    public func release() {
        guard !released else { return }
        released = true
        onRelease()
    }
}
