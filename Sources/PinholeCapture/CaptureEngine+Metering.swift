// `ae point X Y`: auto exposure metered at a point of the upright picture, where the camera can.

import PinholeCore

/// Why AE cannot meter at a point.
public enum MeteringPointError: Error, CustomStringConvertible, Equatable {
    /// The camera lists no metering-window control.
    case unsupported(camera: String)
    /// Exposure is manual: there is no AE to point.
    case manualExposure
    /// The point is outside the picture (or not a number).
    case outOfRange(x: Double, y: Double)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unsupported(let camera):
            return
                "camera \(camera) cannot meter at a point: it lists no \(CaptureEngine.aeWindowControl) control (libcamera's AE offers only AeMeteringMode); use `metering spot` to meter the centre"
        case .manualExposure:
            return "exposure is manual: there is no AE to meter at a point (use `exposure auto` first)"
        case .outOfRange(let x, let y):
            return "AE point (\(x), \(y)) is outside the picture: use 0…1 for both (0 0 is the top left)"
        }
    }
}

extension CaptureEngine {
    /// The control a camera meters a region with: rectangles in ScalerCropMaximum
    /// coordinates, shaped like libcamera's AfWindows. libcamera (to 0.7) defines none, so a
    /// real camera refuses `ae point`; the simulated cameras list it.
    public static let aeWindowControl = "AeWindows"

    /// The size of the metered region around the point, as a fraction of the picture.
    static let aeWindowSize = 0.1

    /// The AE point in the upright picture, or nil when the metering mode decides.
    public var aePicturePoint: (x: Double, y: Double)? { exposure.point.map { ($0.x, $0.y) } }

    /// `ae point X Y`: AE meters the region around the picture point `x`, `y` (0 0 top left,
    /// as the viewfinder shows it), mapped through mount rotation, tilt and zoom to the
    /// sensor. A camera that cannot meter at a point is an error and nothing changes.
    public func setAEPoint(x: Double, y: Double) throws {
        guard x.isFinite, y.isFinite, (0...1).contains(x), (0...1).contains(y) else {
            throw MeteringPointError.outOfRange(x: x, y: y)
        }
        guard let camera = current else { throw CaptureError.noCamera }
        guard camera.controls[Self.aeWindowControl] != nil else {
            throw MeteringPointError.unsupported(camera: camera.model)
        }
        guard !exposure.isManual else { throw MeteringPointError.manualExposure }
        try setUserControls([Self.aeWindowControl: .rectangles([aeWindow(x: x, y: y)])], waitsForAE: true)
        exposure.point = PicturePoint(x: x, y: y)
        settingsChanged()
    }

    /// `ae point off`: the metering mode decides again (the window covers the whole sensor).
    public func clearAEPoint() throws {
        guard exposure.point != nil else { return }
        guard let camera = current else { throw CaptureError.noCamera }
        if camera.controls[Self.aeWindowControl] != nil {
            try setUserControls(
                [Self.aeWindowControl: .rectangles([NormalizedRect(x: 0, y: 0, width: 1, height: 1)])],
                waitsForAE: !exposure.isManual)
        }
        exposure.point = nil
        settingsChanged()
    }

    /// The sensor region (normalized to ScalerCropMaximum) under a square of the picture
    /// around `x`, `y`, clamped to the picture.
    func aeWindow(x: Double, y: Double) -> NormalizedRect {
        let half = Self.aeWindowSize / 2
        let left = min(max(0, x - half), 1 - 2 * half)
        let top = min(max(0, y - half), 1 - 2 * half)
        let frame = pictureFrame
        let a = frame.sensorPoint(x: left, y: top)
        let b = frame.sensorPoint(x: left + 2 * half, y: top + 2 * half)
        return NormalizedRect(
            x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// Applies a saved AE point to `camera` as it starts; one it cannot do is reported and the
    /// metering mode used.
    func applyRestoredAEPoint(_ camera: CameraInfo) {
        guard let point = exposure.point else { return }
        do { try setAEPoint(x: point.x, y: point.y) } catch {
            report(
                .settingRefused(
                    "AE point \(point.x) \(point.y): \(error); metering \(exposure.metering.rawValue)"))
            exposure.point = nil
        }
    }
}
