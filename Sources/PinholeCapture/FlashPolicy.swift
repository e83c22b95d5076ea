// When the torch LED fires as a flash: off, on, or auto from the scene light the camera reports.

import PinholeCore
import PinholeImaging

/// Decides whether a capture uses the torch LED as its flash.
public struct FlashPolicy: Sendable, Hashable {
    /// off / on / auto.
    public var mode: FlashMode = .off
    /// In auto mode the flash fires when the scene is darker than this, in lux.
    public var autoThresholdLux = 50.0
    /// At most this many frames are waited for AE to settle under the flash.
    public var maxSettleFrames = 8

    /// Default policy: flash off.
    public init() {}

    /// In auto mode, for a camera that reports no lux: fire when AE needs more than this
    /// exposure product (seconds × total gain).
    public var autoThresholdExposureProduct = 0.1

    /// Whether to fire, judging the scene by the latest frame (nil: none yet), on a camera that
    /// `hasFlash`.
    public func shouldFire(scene frame: FrameMetadata?, hasFlash: Bool) -> Bool {
        guard hasFlash else { return false }
        switch mode {
        case .off: return false
        case .on: return true
        case .auto:
            guard let frame else { return false }
            if let lux = frame.lux { return lux < autoThresholdLux }
            return frame.exposureTime.seconds * frame.totalGain > autoThresholdExposureProduct
        }
    }
}
