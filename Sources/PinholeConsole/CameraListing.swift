// The `camera list --json` record of one camera.

import PinholeAppliance
import PinholeCapture
import PinholeCore

/// One camera as `camera list --json` reports it.
struct CameraListing: Encodable {
    struct Control: Encodable {
        var min: Double
        var max: Double
        var `default`: Double?
    }

    var id: String
    var model: String
    var position: String
    var current: Bool
    var torch: Bool
    var focus: String
    var pixelArraySize: String
    var stillSizes: [String]
    var viewfinderSizes: [String]
    var stillFormats: [String]
    /// Video stream sizes (libcamera's VideoRecording role, or the still stream scaled); empty: no video.
    var videoSizes: [String]
    /// Video frame rates `[video] fps` may take.
    var videoFrameRates: [Int]
    var controls: [String: Control]
    /// The highest digital zoom (`zoom F`); 1 when the camera cannot zoom (no ScalerCrop).
    var zoomLimit: Double

    init(_ camera: CameraInfo, engine: CaptureEngine) {
        id = camera.id
        model = camera.model
        position = engine.position(of: camera).rawValue
        current = engine.current?.id == camera.id
        torch = engine.fitting(for: camera)?.torch ?? false
        focus = camera.hasAutofocusAlgorithm ? "autofocus" : camera.hasFocusControl ? "motorized" : "fixed"
        pixelArraySize = camera.pixelArraySize.description
        stillSizes = camera.stillSizes.map(\.description)
        viewfinderSizes = camera.viewfinderSizes.map(\.description)
        stillFormats = camera.stillFormats.map(\.rawValue)
        videoSizes = camera.videoSizes.map(\.description)
        videoFrameRates = camera.videoFrameRates
        controls = camera.controls.mapValues { Control(min: $0.min, max: $0.max, default: $0.defaultValue) }
        zoomLimit = engine.zoomLimit(of: camera) ?? 1
    }

    /// `zoom to 8.0x`, or `no zoom`.
    var zoomText: String {
        zoomLimit > 1 ? "zoom to \(zoomLimit)x" : "no zoom"
    }

    /// `video 1920x1080,1280x720 at 24,25,30 fps`, or `no video`.
    var videoText: String {
        guard !videoSizes.isEmpty else { return "no video" }
        let rates = videoFrameRates.map(String.init).joined(separator: ",")
        return "video \(videoSizes.joined(separator: ",")) at \(rates) fps"
    }

    var line: String {
        "\(id) \(model) \(position)\(current ? " (current)" : "")\(torch ? " torch" : "") \(pixelArraySize) \(focus)"
            + " \(videoText) \(zoomText)"
    }
}
