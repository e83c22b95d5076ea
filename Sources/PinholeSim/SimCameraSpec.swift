// Descriptions of the simulated cameras: sensor size, lens, timing and the controls they report.

import PinholeCore

/// What a simulated camera is.
public struct SimCameraSpec: Sendable, Hashable {
    /// Which generation of libcamera's exposure controls the camera reports.
    public enum ControlStyle: Sendable, Hashable {
        /// libcamera 0.3: `AeEnable` switches AE on and off.
        case aeEnable
        /// libcamera 0.5+: `ExposureTimeMode` and `AnalogueGainMode` (0 auto, 1 manual).
        case exposureModes
    }

    /// Camera id (as libcamera would report it).
    public var id: String
    /// Sensor model.
    public var model: String
    /// Where it faces.
    public var position: CameraPosition
    /// Pixel array size.
    public var pixelArraySize: PixelSize
    /// Whether the lens can be moved (reports LensPosition).
    public var focusable: Bool
    /// Whether the camera's "IPA" runs its own AF algorithm (reports AfMode, AfTrigger, AfState).
    public var autofocusAlgorithm: Bool
    /// Exposure control generation.
    public var controlStyle: ControlStyle
    /// Fixed lens position in dioptres for a fixed-focus lens (hyperfocal).
    public var fixedLensPosition: Double
    /// Defocus blur per dioptre, as a fraction of the frame width.
    public var blurPerDioptre: Double
    /// Frame period at normal exposures.
    public var frameDuration: Duration
    /// Lens travel speed in dioptres per second.
    public var lensSpeed: Double
    /// Frames until an exposure or white-balance control takes effect: a control set now is
    /// first used by the `controlDelay`-th frame to start after it (libcamera's Raspberry Pi
    /// pipeline delays exposure by two frames and gain by one; 2 models the slower).
    public var controlDelay = 2
    /// Whether the camera meters at a point (reports `AeWindows`). No libcamera camera does
    /// today; the simulated back cameras model one that can, the front one one that cannot.
    public var aeWindows = true
    /// The highest digital zoom ScalerCrop allows (the ISP's downscaling limit).
    public var zoomLimit = 8.0
    /// Time from `start()` until the first frame begins to expose (sensor power-up, stream
    /// start and the pipeline's first request), on the loop's clock.
    public var startupLatency: Duration

    /// Creates a spec.
    public init(
        id: String, model: String, position: CameraPosition, pixelArraySize: PixelSize,
        focusable: Bool, autofocusAlgorithm: Bool = false, controlStyle: ControlStyle = .aeEnable,
        fixedLensPosition: Double = 0.5, blurPerDioptre: Double = 0.004,
        frameDuration: Duration = .microseconds(33_333), lensSpeed: Double = 40,
        startupLatency: Duration = .zero, aeWindows: Bool = true
    ) {
        self.aeWindows = aeWindows
        self.id = id
        self.model = model
        self.position = position
        self.pixelArraySize = pixelArraySize
        self.focusable = focusable
        self.autofocusAlgorithm = autofocusAlgorithm && focusable
        self.controlStyle = controlStyle
        self.fixedLensPosition = fixedLensPosition
        self.blurPerDioptre = blurPerDioptre
        self.frameDuration = frameDuration
        self.lensSpeed = lensSpeed
        self.startupLatency = startupLatency
    }

    /// About what a Raspberry Pi camera takes from `Camera::start()` to its first frame under
    /// libcamera (sensor power-up, stream-on and the first requests through the ISP). The
    /// simulated board's cameras use it; the built-in specs start at once so that tests can
    /// count frames from zero.
    public static let typicalStartupLatency: Duration = .milliseconds(180)

    /// This spec with a start-up latency.
    public func startingAfter(_ latency: Duration) -> SimCameraSpec {
        var spec = self
        spec.startupLatency = latency
        return spec
    }

    /// The back camera: 12.3 MP like the HQ camera (4056×3040), with a motorized lens whose
    /// IPA has no AF algorithm (Pinhole focuses it by contrast detection).
    public static let back = SimCameraSpec(
        id: "/base/soc/i2c0mux/i2c@1/imx477@1a", model: "imx477", position: .back,
        pixelArraySize: PixelSize(width: 4056, height: 3040), focusable: true)

    /// The front camera: 5 MP, fixed focus.
    public static let front = SimCameraSpec(
        id: "/base/soc/i2c0mux/i2c@0/ov5647@36", model: "ov5647", position: .front,
        pixelArraySize: PixelSize(width: 2592, height: 1944), focusable: false,
        fixedLensPosition: 0.5, blurPerDioptre: 0.0015, aeWindows: false)

    /// A Camera-Module-3-like back camera (imx708) whose IPA runs phase-detect AF and reports
    /// libcamera 0.5's exposure mode controls.
    public static let backWithAutofocus = SimCameraSpec(
        id: "/base/soc/i2c0mux/i2c@1/imx708@1a", model: "imx708", position: .back,
        pixelArraySize: PixelSize(width: 4608, height: 2592), focusable: true, autofocusAlgorithm: true,
        controlStyle: .exposureModes)

    /// Still sizes offered: full size, then half.
    public var stillSizes: [PixelSize] {
        [pixelArraySize, PixelSize(width: pixelArraySize.width / 2, height: pixelArraySize.height / 2)]
    }

    /// Video sizes offered (largest first); the small ones keep tests fast.
    public var videoSizes: [PixelSize] {
        [
            PixelSize(width: 1920, height: 1080), PixelSize(width: 1280, height: 720),
            PixelSize(width: 640, height: 480), PixelSize(width: 320, height: 240),
            PixelSize(width: 160, height: 96),
        ].filter { $0.width <= pixelArraySize.width && $0.height <= pixelArraySize.height }
    }

    /// Video frame rates offered: up to the sensor's own rate.
    public var videoFrameRates: [Int] {
        let most = Int((1 / frameDuration.seconds).rounded())
        return [10, 15, 24, 25, 30].filter { $0 <= most }
    }

    /// Controls reported, by libcamera name.
    public var controls: [String: ControlRange] {
        var controls: [String: ControlRange] = [
            "ExposureTime": ControlRange(min: 100, max: 1_000_000, defaultValue: 20_000),
            "AnalogueGain": ControlRange(min: 1, max: 16, defaultValue: 1),
            "ExposureValue": ControlRange(min: -8, max: 8, defaultValue: 0),
            "AeMeteringMode": ControlRange(min: 0, max: 2, defaultValue: 0),
            "AwbEnable": ControlRange(min: 0, max: 1, defaultValue: 1),
            "AwbMode": ControlRange(min: 0, max: 7, defaultValue: 0),
        ]
        switch controlStyle {
        case .aeEnable:
            controls["AeEnable"] = ControlRange(min: 0, max: 1, defaultValue: 1)
        case .exposureModes:
            controls["ExposureTimeMode"] = ControlRange(min: 0, max: 1, defaultValue: 0)
            controls["AnalogueGainMode"] = ControlRange(min: 0, max: 1, defaultValue: 0)
        }
        // Rectangle controls: the range of ScalerCrop is the zoom it allows.
        controls["ScalerCrop"] = ControlRange(min: 1, max: zoomLimit)
        if aeWindows { controls["AeWindows"] = ControlRange(min: 0, max: 1) }
        if focusable {
            controls["LensPosition"] = ControlRange(min: 0, max: 15, defaultValue: 1)
        }
        if autofocusAlgorithm {
            controls["AfMode"] = ControlRange(min: 0, max: 2, defaultValue: 0)
            controls["AfTrigger"] = ControlRange(min: 0, max: 1, defaultValue: 0)
            controls["AfRange"] = ControlRange(min: 0, max: 2, defaultValue: 0)
            controls["AfSpeed"] = ControlRange(min: 0, max: 1, defaultValue: 0)
            controls["AfMetering"] = ControlRange(min: 0, max: 1, defaultValue: 0)
            controls["AfWindows"] = ControlRange(min: 0, max: 1)
        }
        return controls
    }

    /// The discovery record for this camera.
    public var info: CameraInfo {
        CameraInfo(
            id: id, model: model, position: position, pixelArraySize: pixelArraySize,
            stillSizes: stillSizes, viewfinderSizes: [PixelSize(width: 640, height: 480)],
            stillFormats: [.yuv420, .nv12], controls: controls, videoSizes: videoSizes,
            videoFrameRates: videoFrameRates)
    }
}
