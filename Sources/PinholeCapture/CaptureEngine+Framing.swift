// Framing: the still size the camera lists, and digital zoom through libcamera's ScalerCrop.

import PinholeCore

/// Why a framing request was refused.
public enum FramingError: Error, CustomStringConvertible, Equatable {
    /// The camera does not list that still size.
    case sizeNotOffered(PixelSize, camera: String, offered: [PixelSize])
    /// The zoom factor is not a number from 1 to the camera's limit.
    case zoomOutOfRange(Double, limit: Double)
    /// The camera lists no ScalerCrop.
    case cannotZoom(camera: String)
    /// Captures are under way; the size can change once they are saved.
    case busy

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .sizeNotOffered(let size, let camera, let offered):
            return
                "camera \(camera) does not offer \(size): choose one of \(offered.map(\.description).joined(separator: ", "))"
        case .zoomOutOfRange(let factor, let limit):
            return "zoom \(factor) is not possible: use 1.0 (none) to \(limit)"
        case .cannotZoom(let camera):
            return "camera \(camera) cannot zoom (it lists no ScalerCrop control): zoom stays 1.0"
        case .busy:
            return "a capture is being saved: change the size once it is done"
        }
    }
}

extension CaptureEngine {
    /// The highest zoom `camera` allows: the ScalerCrop control's range (nil: it cannot zoom).
    public func zoomLimit(of camera: CameraInfo) -> Double? {
        guard let range = camera.controls["ScalerCrop"], range.max.isFinite, range.max >= 1 else {
            return nil
        }
        return range.max
    }

    /// The zoom in force on the running camera (1: none).
    public var zoom: Double { current.flatMap { perCamera[$0.id]?.zoom } ?? 1 }

    /// The part of the sensor's active area (ScalerCropMaximum) a zoom of `factor` shows:
    /// centred, 1/factor of each side.
    public static func crop(zoom factor: Double) -> NormalizedRect {
        let side = 1 / max(1, factor)
        return NormalizedRect(x: (1 - side) / 2, y: (1 - side) / 2, width: side, height: side)
    }

    /// The still size in use.
    public var stillSize: PixelSize? {
        switch configuration {
        case .valid(let request)?, .adjusted(let request, _)?: return request.stillSize
        case nil: return current?.pixelArraySize
        }
    }

    /// `zoom F`: crops the centre of the sensor by `factor` (1 … the camera's limit) through
    /// ScalerCrop; the viewfinder and the photo follow, a press waits for a frame with the crop
    /// in force, and AF and AE points stay where they are in the picture. Saved per camera.
    public func setZoom(_ factor: Double) throws {
        guard let camera = current else { throw CaptureError.noCamera }
        guard let limit = zoomLimit(of: camera) else { throw FramingError.cannotZoom(camera: camera.model) }
        guard factor.isFinite, factor >= 1, factor <= limit else {
            throw FramingError.zoomOutOfRange(factor, limit: limit)
        }
        let afPoint = afPicturePoint
        let aePoint = aePicturePoint
        try setUserControls(["ScalerCrop": .rectangles([Self.crop(zoom: factor)])])
        perCamera[camera.id, default: .init()].zoom = factor == 1 ? nil : factor
        keepPoints(af: afPoint, ae: aePoint)
        settingsChanged()
    }

    /// `camera size WxH`: configures the still stream with one of the sizes the camera lists
    /// (the camera restarts, through its session). Saved per camera once the camera streams
    /// at that size; `completion` runs on the loop then, or with the error (the camera is
    /// started again at the size it had).
    public func setStillSize(_ size: PixelSize, then completion: @escaping ((any Error)?) -> Void = { _ in })
        throws
    {
        guard let camera = current else { throw CaptureError.noCamera }
        guard camera.stillSizes.contains(size) else {
            throw FramingError.sizeNotOffered(size, camera: camera.model, offered: camera.stillSizes)
        }
        guard !machine.isBusy else { throw FramingError.busy }
        let previous = perCamera[camera.id]?.stillSize
        perCamera[camera.id, default: .init()].stillSize = size
        do {
            try run(camera) { [weak self] error in
                guard let self else { return }
                guard let error else {
                    self.settingsChanged()
                    return completion(nil)
                }
                self.perCamera[camera.id]?.stillSize = previous
                // Back to the size it had; that start's own failure is the camera's, reported there.
                do { try self.run(camera) { _ in } } catch {
                    self.report(.restartFailed(camera: camera.model, reason: "\(error)"))
                }
                completion(error)
            }
        } catch {
            perCamera[camera.id]?.stillSize = previous
            throw error
        }
    }

    /// Puts the AF and AE points back where they were in the picture after the crop changed
    /// (clamped to the picture).
    func keepPoints(af: (x: Double, y: Double), ae: (x: Double, y: Double)?) {
        let clamp = { (value: Double) in min(1, max(0, value)) }
        if focus.method != .none {
            let sensor = pictureFrame.sensorPoint(x: clamp(af.x), y: clamp(af.y))
            try? focus.setPoint(x: sensor.x, y: sensor.y)
        }
        if let ae { try? setAEPoint(x: clamp(ae.x), y: clamp(ae.y)) }
    }

    /// Applies a saved zoom to `camera` as it starts; one it cannot do is reported and 1.0 used.
    func applyRestoredZoom(_ camera: CameraInfo) {
        guard let factor = perCamera[camera.id]?.zoom, factor != 1 else { return }
        guard let limit = zoomLimit(of: camera), factor.isFinite, factor >= 1, factor <= limit else {
            report(
                .settingRefused(
                    "zoom \(factor) saved for \(camera.model), which cannot zoom that far: zoom 1.0"))
            perCamera[camera.id]?.zoom = nil
            return
        }
        do { try setControls(["ScalerCrop": .rectangles([Self.crop(zoom: factor)])]) } catch {
            report(.settingRefused("zoom \(factor) saved for \(camera.model): \(error); zoom 1.0"))
            perCamera[camera.id]?.zoom = nil
        }
    }
}
