// The metadata a photo carries, and the picture's orientation (mount + tilt) computed in one place.

import PinholeCore
import PinholeImaging

extension CaptureEngine {
    /// How far the picture is turned clockwise relative to the sensor's rows: the current
    /// camera's mount rotation plus the body's tilt, in degrees (0, 90, 180, 270). EXIF
    /// orientation, the viewfinder and AF/AE point mapping all use this.
    public var pictureRotation: Int { pictureRotation(for: current) }

    /// The picture rotation for `camera` mounted on this board, in the body's tilt now.
    public func pictureRotation(for camera: CameraInfo?) -> Int {
        let mount = camera.flatMap { board.fitting(for: $0)?.mountRotation } ?? 0
        let total = mount + (delegate?.captureEngineBodyRotation(self) ?? 0)
        return ((total % 360) + 360) % 360
    }

    /// The EXIF orientation a photo taken now carries.
    public var orientation: Orientation { Orientation(mountRotation: pictureRotation) }

    /// The metadata a frame's photo carries: what the frame really used, and the settings in force.
    public func photoMetadata(for frame: FrameMetadata, camera: CameraInfo) -> PhotoMetadata {
        let fitting = board.fitting(for: camera)
        let size: PixelSize
        switch configuration {
        case .valid(let request)?, .adjusted(let request, _)?: size = request.stillSize
        case nil: size = camera.pixelArraySize
        }
        var metadata = PhotoMetadata(
            pixelWidth: size.width, pixelHeight: size.height,
            orientation: Orientation(mountRotation: pictureRotation(for: camera)))
        metadata.make = board.make
        metadata.model = camera.model
        metadata.software = software
        // DateTimeOriginal is the start of the frame's exposure: the camera's own wall clock
        // where it reports one (FrameWallClock), else the sensor timestamp on the wall clock.
        metadata.captureTime = frame.wallClock ?? loop.wallTime(at: frame.sensorTimestamp)
        // A camera that does not report its exposure (no IPA metadata) leaves the tag out.
        metadata.exposureTime = frame.exposureTime > .zero ? frame.exposureTime.seconds : nil
        // No gain reported (vimc) or a nonsensical one: no ISO rather than a made-up figure.
        let gain = frame.totalGain
        metadata.iso = gain.isFinite && gain > 0 ? Int((min(gain, 10_000) * 100).rounded()) : nil
        metadata.fNumber = fitting?.fNumber
        metadata.focalLength = fitting?.focalLength
        metadata.lensModel = fitting?.lensModel
        metadata.lensPosition = frame.lensPosition
        metadata.cameraID = camera.id
        if fitting?.torch ?? false {
            metadata.flashFired = false
            metadata.flashMode = flash.mode
        }
        let used = exposureLog.last { $0.since <= frame.sensorTimestamp }?.settings ?? ExposureSettings()
        metadata.manualExposure = used.isManual
        metadata.exposureBias = used.isManual ? 0 : used.ev
        if camera.controls["AeMeteringMode"] != nil { metadata.metering = used.metering.rawValue }
        metadata.manualWhiteBalance = used.whiteBalance != .auto
        if used.point != nil, !used.isManual { metadata.metering = "spot" }
        // The crop the frame reports (the simulated camera echoes ScalerCrop), else the one asked.
        var zoom = perCamera[camera.id]?.zoom ?? 1
        if case .rectangles(let rects)? = frame.controls["ScalerCrop"], let crop = rects.first, crop.width > 0
        {
            zoom = (1000 / crop.width).rounded() / 1000
        }
        metadata.digitalZoom = zoom > 1 ? zoom : nil
        return metadata
    }
}
