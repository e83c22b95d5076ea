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
                guard name == "AfWindows", !rects.isEmpty else {
                    throw CameraError.unsupportedControl("\(name) with rectangles", camera: spec.model)
                }
                continue
            }
            let number = Self.number(value)
            guard number >= range.min, number <= range.max else {
                throw CameraError.outOfRange(control: name, value: number, range: range)
            }
        }
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
