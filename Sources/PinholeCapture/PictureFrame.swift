// Points in the upright picture (as the viewfinder and the photo show it) mapped to the sensor.

import PinholeCore

/// How the upright picture relates to the sensor: the picture is the sensor's crop (zoom),
/// turned clockwise by `rotation` (mount + tilt) to be upright. Points are normalized, 0 0 at
/// the top left.
public struct PictureFrame: Sendable, Hashable {
    /// Clockwise rotation from the sensor's rows to the upright picture (0, 90, 180, 270).
    public var rotation: Int
    /// The part of the sensor the picture shows, normalized (the full sensor without zoom).
    public var crop: NormalizedRect

    /// A frame turned by `rotation` degrees showing `crop` of the sensor.
    public init(rotation: Int, crop: NormalizedRect = NormalizedRect(x: 0, y: 0, width: 1, height: 1)) {
        self.rotation = ((rotation % 360) + 360) % 360
        self.crop = crop
    }

    /// The sensor point (normalized over the whole sensor, as libcamera's AfWindows are)
    /// under the picture point `x`, `y`.
    public func sensorPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        // Undo the display rotation: the picture is the crop turned clockwise by `rotation`.
        let (cx, cy): (Double, Double)
        switch rotation {
        case 90: (cx, cy) = (y, 1 - x)
        case 180: (cx, cy) = (1 - x, 1 - y)
        case 270: (cx, cy) = (1 - y, x)
        default: (cx, cy) = (x, y)
        }
        return (crop.x + cx * crop.width, crop.y + cy * crop.height)
    }

    /// The picture point showing the sensor point `x`, `y` (the inverse of `sensorPoint`).
    public func picturePoint(sensorX x: Double, sensorY y: Double) -> (x: Double, y: Double) {
        let cx = crop.width > 0 ? (x - crop.x) / crop.width : 0.5
        let cy = crop.height > 0 ? (y - crop.y) / crop.height : 0.5
        switch rotation {
        case 90: return (1 - cy, cx)
        case 180: return (1 - cx, 1 - cy)
        case 270: return (cy, 1 - cx)
        default: return (cx, cy)
        }
    }
}

extension CaptureEngine {
    /// The upright picture of the current camera now: its mount rotation, the body's tilt and
    /// the zoom's crop.
    public var pictureFrame: PictureFrame {
        PictureFrame(rotation: pictureRotation, crop: Self.crop(zoom: zoom))
    }

    /// Sets the AF point in the upright picture (0 0 top left, as the viewfinder shows it),
    /// mapped through mount rotation, tilt and the zoom's crop to the sensor.
    public func setAFPoint(x: Double, y: Double) throws {
        guard (0...1).contains(x), (0...1).contains(y) else { throw FocusError.pointOutOfRange(x: x, y: y) }
        let sensor = pictureFrame.sensorPoint(x: x, y: y)
        try focus.setPoint(x: sensor.x, y: sensor.y)
    }

    /// The AF point in the upright picture now.
    public var afPicturePoint: (x: Double, y: Double) {
        pictureFrame.picturePoint(sensorX: focus.point.x, sensorY: focus.point.y)
    }
}
