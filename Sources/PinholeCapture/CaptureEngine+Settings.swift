// Settings that survive a restart: the engine's state as `SavedSettings`, restored at start.

import PinholeCore
import PinholeImaging

extension CaptureEngine {
    /// The settings as they are saved now.
    public var savedSettings: SavedSettings {
        var settings = SavedSettings()
        settings.exposure = exposure
        settings.afMode = focus.mode
        settings.afRange = focus.range
        settings.afSpeed = focus.speed
        settings.album = currentAlbum
        settings.cameras = perCamera
        return settings
    }

    /// Takes over settings saved earlier (call before `start`). What a camera cannot do is
    /// reported as it starts, and its default used.
    public func restore(_ settings: SavedSettings) {
        exposure = settings.exposure
        focus.mode = settings.afMode
        focus.range = settings.afRange
        focus.speed = settings.afSpeed
        currentAlbum = settings.album
        perCamera = settings.cameras
    }

    /// `album current NAME|off`: every new photo goes into the album titled `title` (which
    /// must exist) in the change batch that creates it; nil stops that.
    public func setCurrentAlbum(_ title: String?) throws {
        if let title { try store.checkAlbum(title) }
        currentAlbum = title
        settingsChanged()
    }

    /// Tells the delegate (which saves them) that the settings changed.
    func settingsChanged() {
        if let camera = current, focus.mode == .manual, let lens = focus.lensTarget {
            perCamera[camera.id, default: .init()].lens = lens
        }
        delegate?.captureEngine(self, settingsChanged: savedSettings)
    }

    /// The still size to configure `camera` with: the saved one if the camera lists it.
    func restoredStillSize(for camera: CameraInfo) -> PixelSize {
        let largest = camera.stillSizes.first ?? camera.pixelArraySize
        guard let saved = perCamera[camera.id]?.stillSize else { return largest }
        guard camera.stillSizes.contains(saved) else {
            refuse(
                "still size \(saved) saved for \(camera.model), which offers \(camera.stillSizes.map(\.description).joined(separator: ", ")): using \(largest)"
            )
            perCamera[camera.id]?.stillSize = nil
            return largest
        }
        return saved
    }

    /// Checks the exposure settings against what `camera` reports; what it cannot do goes
    /// back to the default, reported.
    func checkRestoredExposure(on camera: CameraInfo) {
        if case .manual(let time, let gain) = exposure.mode {
            let microseconds = Double(time.nanoseconds / 1000)
            let timeRange = camera.controls["ExposureTime"]
            let gainRange = camera.controls["AnalogueGain"]
            let fits =
                timeRange.map { (microseconds >= $0.min && microseconds <= $0.max) } ?? false
                && gainRange.map { gain >= $0.min && gain <= $0.max } ?? false
            if !fits {
                refuse(
                    "manual exposure \(Int(microseconds)) µs gain \(gain) is beyond \(camera.model): using auto exposure"
                )
                exposure.mode = .auto
            }
        }
        if exposure.ev != 0, let range = camera.controls["ExposureValue"],
            !(range.min...range.max).contains(exposure.ev)
        {
            refuse("EV \(exposure.ev) is beyond \(camera.model)'s \(range.min)…\(range.max): using 0")
            exposure.ev = 0
        }
    }

    /// Applies the per-camera settings that need a running camera: flash, the manual lens,
    /// zoom and the AE point.
    func applyRestoredCameraSettings(_ camera: CameraInfo) {
        applyRestoredZoom(camera)
        applyRestoredAEPoint(camera)
        let saved = perCamera[camera.id]
        let mode = saved?.flash ?? .off
        if mode != .off && !hasFlash {
            refuse("flash \(mode.rawValue) saved for \(camera.model), which has no flash: flash off")
            perCamera[camera.id]?.flash = nil
            flash.mode = .off
        } else {
            flash.mode = mode
        }
        if focus.mode == .manual, let lens = saved?.lens, camera.hasFocusControl {
            do { try focus.moveLens(lens, byUser: false) } catch {
                refuse("lens \(lens) saved for \(camera.model): \(error)")
            }
        }
    }

    private func refuse(_ text: String) {
        report(.settingRefused(text))
    }
}
