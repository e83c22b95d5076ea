// Exposure, white balance, flash and raw controls on the running camera, checked against what it reports.

import PinholeCore
import PinholeImaging

extension CaptureEngine {
    /// Sets controls on the running camera. Every control must be one the camera reports,
    /// with a value inside its range; otherwise nothing is set and the error says which.
    public func setControls(_ controls: [String: ControlValue]) throws {
        guard let device, let camera = current else { throw CaptureError.noCamera }
        try camera.checkControls(controls)
        try device.setControls(controls)
    }

    /// Sets controls the user asked for: checked like `setControls`, and a press from now on
    /// is served by the first frame whose metadata shows them in effect. `waitsForAE`: the
    /// change moves auto exposure, so the frame must also show AE settled.
    public func setUserControls(_ controls: [String: ControlValue], waitsForAE: Bool = false) throws {
        try setControls(controls)
        machine.controlsChanged(
            ControlRequirement(
                changedAt: loop.now, expected: controls, waitsForAE: waitsForAE,
                delayFrames: controlDelayFrames))
    }

    /// Auto exposure, or fixed exposure time and gain.
    public func setExposure(_ mode: ExposureMode) throws {
        guard let camera = current else { throw CaptureError.noCamera }
        if case .manual(let time, let gain) = mode {
            guard time > .zero, gain.isFinite else {
                throw CameraError.outOfRange(
                    control: "ExposureTime", value: time.seconds * 1e6,
                    range: camera.controls["ExposureTime"] ?? ControlRange(min: 1, max: 1))
            }
        }
        try setUserControls(ExposureSettings.controls(for: mode, on: camera), waitsForAE: mode == .auto)
        exposure.mode = mode
        exposureLocked = false
        settingsChanged()
    }

    /// EV compensation in stops.
    public func setEV(_ stops: Double) throws {
        try setUserControls(["ExposureValue": .double(stops)], waitsForAE: !exposure.isManual)
        exposure.ev = stops
        settingsChanged()
    }

    /// AE metering mode.
    public func setMetering(_ mode: MeteringMode) throws {
        try setUserControls(["AeMeteringMode": .int(mode.libcameraValue)], waitsForAE: !exposure.isManual)
        exposure.metering = mode
        settingsChanged()
    }

    /// White-balance mode.
    public func setWhiteBalance(_ mode: WhiteBalanceMode) throws {
        guard let camera = current else { throw CaptureError.noCamera }
        var controls: [String: ControlValue] = ["AwbMode": .int(mode.libcameraValue)]
        if camera.controls["AwbEnable"] != nil { controls["AwbEnable"] = .bool(true) }
        try setUserControls(controls)
        exposure.whiteBalance = mode
        settingsChanged()
    }

    /// Flash mode: off, on, or auto (fires when the scene the camera reports is dark).
    public func setFlashMode(_ mode: FlashMode) throws {
        guard let camera = current else { throw CaptureError.noCamera }
        if mode != .off && !hasFlash { throw CaptureError.noFlash(camera: camera.model) }
        flash.mode = mode
        perCamera[camera.id, default: .init()].flash = mode
        settingsChanged()
    }

    /// Half-press of a two-stage shutter: focus once and hold focus, lock AE and AWB, until
    /// `endHalfPress`. Locks the camera cannot do are skipped.
    public func beginHalfPress() {
        focus.hold()
        lockExposure(true)
    }

    /// Half-press released: focus, exposure and white balance follow the scene again.
    public func endHalfPress() {
        focus.release()
        lockExposure(false)
    }

    /// Holds (or releases) what AE and AWB have chosen (half-press). Locks the camera cannot
    /// do are skipped.
    func lockExposure(_ lock: Bool) {
        if !exposure.isManual, lock != exposureLocked { try? setAELock(lock) }
        if lock != awbLocked { try? setAWBLock(lock) }
    }

    /// `ae lock`: holds the exposure AE has chosen until `ae unlock`.
    public func setAELock(_ lock: Bool) throws {
        guard let camera = current else { throw CaptureError.noCamera }
        guard !exposure.isManual else {
            throw CaptureError.failed(
                "exposure is manual: there is no AE to lock (use `exposure auto` first)")
        }
        try setControls(ExposureSettings.aeSwitch(manual: lock, on: camera))
        exposureLocked = lock
    }

    /// `awb lock`: holds the colour balance AWB has chosen until `awb unlock`.
    public func setAWBLock(_ lock: Bool) throws {
        guard let camera = current else { throw CaptureError.noCamera }
        guard camera.controls["AwbEnable"] != nil else {
            throw CameraError.unsupportedControl("AwbEnable (AWB lock)", camera: camera.model)
        }
        try setControls(["AwbEnable": .bool(!lock)])
        awbLocked = lock
    }
}
