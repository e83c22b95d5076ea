// The simulator's working planes kept for the next frame that sees the same scene the same way.

import Synchronization

/// What a frame's working planes depend on: the scene, the working size and the exposure
/// (time, gain, lens, aperture), but not the frame's sensor noise, which is added per frame.
struct SimWorkingKey: Hashable, Sendable {
    var scene: SimScene
    var width: Int
    var height: Int
    var exposureTime: Duration
    var gain: Double
    var lensPosition: Double
    var blurPerDioptre: Double

    init(scene: SimScene, width: Int, height: Int, exposure: SimExposure) {
        self.scene = scene
        self.width = width
        self.height = height
        exposureTime = exposure.exposureTime
        gain = exposure.gain
        lensPosition = exposure.lensPosition
        blurPerDioptre = exposure.blurPerDioptre
    }
}

/// A frame's working planes (8-bit Y, Cb, Cr at the working size), before upscaling and noise.
struct SimWorkingPlanes: Sendable {
    var luma: [UInt8]
    var cb: [UInt8]
    var cr: [UInt8]
}

/// A camera's most recent working planes, one set per working size (the still, viewfinder
/// and video streams each have their own), shared by its frames across threads.
///
/// A burst or a still scene renders the same working planes frame after frame: a frame whose
/// key matches reuses them and only pays its own upscale and noise, so the picture is exactly
/// what rendering from scratch gives. At most `capacity` sizes are kept (a few MB at 12 MP).
public final class SimRenderCache: Sendable {
    private let entries = Mutex<[(key: SimWorkingKey, planes: SimWorkingPlanes)]>([])
    private let capacity: Int

    /// Creates an empty cache for up to `capacity` working sizes.
    public init(capacity: Int = 3) {
        self.capacity = max(1, capacity)
    }

    /// The planes for `key`, made by `make` when the cache has none for it.
    func planes(for key: SimWorkingKey, make: () -> SimWorkingPlanes) -> SimWorkingPlanes {
        let cached = entries.withLock { entries in entries.first { $0.key == key }?.planes }
        if let cached { return cached }
        let planes = make()
        entries.withLock { entries in
            entries.removeAll { $0.key.width == key.width && $0.key.height == key.height }
            entries.append((key, planes))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return planes
    }
}
