// The simulated camera's controls, by libcamera name, checked against what it reports.

import PinholeCore

extension SimulatedCamera {
    /// Sets controls. Every control must be reported by the camera and inside its range;
    /// otherwise nothing is changed and the error says which control failed.
    ///
    /// Like libcamera's Raspberry Pi IPA, turning AE off (AeEnable false, or
    /// ExposureTimeMode / AnalogueGainMode manual) without a value holds what AE chose last.
    public func setControls(_ controls: [String: ControlValue]) throws {
        let supported = spec.controls
        for (name, value) in controls {
            guard let range = supported[name] else {
                throw CameraError.unsupportedControl(name, camera: spec.model)
            }
            if case .rectangles(let rects) = value {
                guard Self.rectangleControls.contains(name), !rects.isEmpty else {
                    throw CameraError.unsupportedControl("\(name) with rectangles", camera: spec.model)
                }
                try checkRectangles(name, rects)
                continue
            }
            let number = Self.number(value)
            guard number >= range.min, number <= range.max else {
                throw CameraError.outOfRange(control: name, value: number, range: range)
            }
        }
        // Exposure and white balance go through the sensor's pipeline: queued for a frame a
        // few frames ahead, as on a real camera. Focus controls act at once (the lens has its
        // own travel time).
        let delayed = controls.filter { Self.delayedControls.contains($0.key) }
        let immediate = controls.filter { !Self.delayedControls.contains($0.key) }
        if !isRunning {
            // Controls set before start are in force from the first frame (libcamera's start(controls)).
            applyNow(delayed)
        } else if !delayed.isEmpty {
            queued.append((sequence + UInt64(max(1, spec.controlDelay) - 1), delayed))
        }
        applyNow(immediate)
    }

    /// Controls that take effect `spec.controlDelay` frames late.
    static let delayedControls: Set<String> = [
        "AeEnable", "ExposureTimeMode", "AnalogueGainMode", "ExposureTime", "AnalogueGain", "ExposureValue",
        "AeMeteringMode", "AwbMode", "AwbEnable", "ScalerCrop", "AeWindows",
    ]

    /// Controls that take rectangles (normalized to the sensor's active area).
    static let rectangleControls: Set<String> = ["AfWindows", "ScalerCrop", "AeWindows"]

    /// Rectangles must lie inside the active area, with some area; a crop no smaller than the
    /// zoom limit allows.
    private func checkRectangles(_ name: String, _ rects: [NormalizedRect]) throws {
        for rect in rects {
            let edges = [rect.x, rect.y, rect.width, rect.height]
            guard edges.allSatisfy(\.isFinite), rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0,
                rect.x + rect.width <= 1 + 1e-9, rect.y + rect.height <= 1 + 1e-9
            else {
                throw CameraError.invalidConfiguration(
                    "\(name) \(rect) is not inside the sensor's active area")
            }
            if name == "ScalerCrop", min(rect.width, rect.height) < 1 / spec.zoomLimit - 1e-9 {
                throw CameraError.outOfRange(
                    control: name, value: 1 / min(rect.width, rect.height),
                    range: ControlRange(min: 1, max: spec.zoomLimit))
            }
        }
    }

    /// Applies queued controls due for the frame with `sequence`.
    func applyQueued(upTo sequence: UInt64) {
        while let first = queued.first, first.sequence <= sequence {
            queued.removeFirst()
            applyNow(first.controls)
        }
    }

    /// What the frame reports as in effect (libcamera's metadata echo of a request's controls).
    var controlsInEffect: [String: ControlValue] {
        var echo: [String: ControlValue] = [
            "ExposureValue": .double(exposureValue), "AeMeteringMode": .int(meteringMode),
            "AwbMode": .int(awbMode), "AwbEnable": .bool(awbEnabled),
            "ScalerCrop": .rectangles([scalerCrop]),
        ]
        if let aeWindow { echo["AeWindows"] = .rectangles([aeWindow]) }
        switch spec.controlStyle {
        case .aeEnable: echo["AeEnable"] = .bool(!(exposureTimeManual && gainManual))
        case .exposureModes:
            echo["ExposureTimeMode"] = .int(exposureTimeManual ? 1 : 0)
            echo["AnalogueGainMode"] = .int(gainManual ? 1 : 0)
        }
        return echo
    }

    private func applyNow(_ controls: [String: ControlValue]) {
        // Modes first, so that values given in the same request win over held ones.
        for name in ["AeEnable", "ExposureTimeMode", "AnalogueGainMode", "AfMode"] {
            guard let value = controls[name] else { continue }
            apply(name, value)
        }
        for (name, value) in controls
        where !["AeEnable", "ExposureTimeMode", "AnalogueGainMode", "AfMode", "AfTrigger"].contains(name) {
            apply(name, value)
        }
        if let trigger = controls["AfTrigger"] { apply("AfTrigger", trigger) }
    }

    private static func number(_ value: ControlValue) -> Double {
        switch value {
        case .bool(let flag): return flag ? 1 : 0
        case .int(let int): return Double(int)
        case .double(let double): return double
        case .rectangles: return 0
        }
    }

    private func apply(_ name: String, _ value: ControlValue) {
        let number = Self.number(value)
        switch name {
        case "AeEnable":
            setTimeManual(number == 0)
            setGainManual(number == 0)
        case "ExposureTimeMode": setTimeManual(number == 1)
        case "AnalogueGainMode": setGainManual(number == 1)
        case "ExposureTime": manualExposure = .microseconds(Int64(number))
        case "AnalogueGain": manualGain = number
        case "ExposureValue": exposureValue = number
        case "LensPosition": lensTarget = number
        case "AwbMode": awbMode = Int(number)
        case "AwbEnable": awbEnabled = number != 0
        case "AeMeteringMode": meteringMode = Int(number)
        case "AfMode": autofocus.setMode(Int(number))
        case "AfRange": autofocus.range = Int(number)
        case "AfSpeed": autofocus.speed = Int(number)
        case "AfTrigger": if number == 0 { autofocus.trigger() } else { autofocus.cancel() }
        case "ScalerCrop":
            if case .rectangles(let rects) = value, let first = rects.first { scalerCrop = first }
        case "AeWindows":
            if case .rectangles(let rects) = value, let first = rects.first {
                aeWindow = first == NormalizedRect(x: 0, y: 0, width: 1, height: 1) ? nil : first
            }
        case "AfWindows":
            if case .rectangles(let rects) = value, let first = rects.first {
                autofocus.window = NormalizedRect(
                    x: first.x, y: first.y, width: first.width,
                    height: first.height)
            }
        default: break
        }
    }

    private func setTimeManual(_ manual: Bool) {
        if manual && !exposureTimeManual { manualExposure = lastExposure }
        exposureTimeManual = manual
        if !manual { currentProduct = Self.clampProduct(lastExposure.seconds * lastGain) }
    }

    private func setGainManual(_ manual: Bool) {
        if manual && !gainManual { manualGain = lastGain }
        gainManual = manual
        if !manual { currentProduct = Self.clampProduct(lastExposure.seconds * lastGain) }
    }
}
