// Exposure and white-balance settings, and the libcamera controls that carry them out.

import PinholeCore

/// Automatic or fixed exposure.
public enum ExposureMode: Sendable, Hashable {
    /// The camera's AE chooses exposure time and gain.
    case auto
    /// Fixed exposure time and analogue gain.
    case manual(time: Duration, gain: Double)
}

/// How AE weighs the frame (libcamera AeMeteringMode).
public enum MeteringMode: String, Sendable, Codable, CaseIterable {
    /// Centre-weighted (0).
    case centre
    /// The central spot (1).
    case spot
    /// The whole frame (2).
    case matrix

    /// libcamera's AeMeteringMode value.
    public var libcameraValue: Int { self == .centre ? 0 : self == .spot ? 1 : 2 }
}

/// White-balance modes (libcamera AwbMode).
public enum WhiteBalanceMode: String, Sendable, Codable, CaseIterable {
    /// Automatic over the whole range (0).
    case auto
    /// Incandescent light (1).
    case incandescent
    /// Tungsten light (2).
    case tungsten
    /// Fluorescent light (3).
    case fluorescent
    /// Indoor light (4).
    case indoor
    /// Daylight (5).
    case daylight
    /// Cloudy daylight (6).
    case cloudy
    /// The camera tuning's custom range (7).
    case custom

    /// libcamera's AwbMode value.
    public var libcameraValue: Int { Self.allCases.firstIndex(of: self)! }
}

/// A point in the upright picture, normalized, 0 0 at the top left.
public struct PicturePoint: Sendable, Hashable {
    /// Across, 0 left … 1 right.
    public var x: Double
    /// Down, 0 top … 1 bottom.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The exposure the user asked for; applied to each camera as it starts.
public struct ExposureSettings: Sendable, Hashable {
    /// Auto or manual.
    public var mode: ExposureMode = .auto
    /// EV compensation in stops (auto exposure only).
    public var ev: Double = 0
    /// Metering mode.
    public var metering: MeteringMode = .centre
    /// White-balance mode.
    public var whiteBalance: WhiteBalanceMode = .auto
    /// Where AE meters, in the upright picture (`ae point X Y`); nil: the metering mode decides.
    public var point: PicturePoint?

    /// Default settings: auto everything.
    public init() {}

    /// Whether exposure is manual.
    public var isManual: Bool {
        if case .manual = mode { return true }
        return false
    }

    /// The controls that set `mode` on `camera`: AeEnable on libcamera 0.3, ExposureTimeMode
    /// and AnalogueGainMode on 0.5+, whichever the camera reports.
    public static func controls(for mode: ExposureMode, on camera: CameraInfo) throws -> [String:
        ControlValue]
    {
        var controls: [String: ControlValue] = [:]
        let manual: Bool
        switch mode {
        case .auto:
            manual = false
        case .manual(let time, let gain):
            manual = true
            controls["ExposureTime"] = .int(Int(time.nanoseconds / 1000))
            controls["AnalogueGain"] = .double(gain)
        }
        try controls.merge(aeSwitch(manual: manual, on: camera)) { $1 }
        return controls
    }

    /// The controls that hold the exposure AE has chosen (AE lock), or let AE run again.
    public static func aeSwitch(manual: Bool, on camera: CameraInfo) throws -> [String: ControlValue] {
        if camera.controls["AeEnable"] != nil { return ["AeEnable": .bool(!manual)] }
        if camera.controls["ExposureTimeMode"] != nil {
            var controls: [String: ControlValue] = ["ExposureTimeMode": .int(manual ? 1 : 0)]
            if camera.controls["AnalogueGainMode"] != nil {
                controls["AnalogueGainMode"] = .int(manual ? 1 : 0)
            }
            return controls
        }
        throw CameraError.unsupportedControl(
            "AeEnable / ExposureTimeMode (exposure control)", camera: camera.model)
    }

    /// Everything these settings set on `camera`, skipping what the camera does not report
    /// (used when a camera starts; explicit requests go through the checked setters).
    func startupControls(on camera: CameraInfo) -> [String: ControlValue] {
        var controls = (try? Self.controls(for: mode, on: camera)) ?? [:]
        if camera.controls["ExposureValue"] != nil { controls["ExposureValue"] = .double(ev) }
        if camera.controls["AeMeteringMode"] != nil {
            controls["AeMeteringMode"] = .int(metering.libcameraValue)
        }
        if camera.controls["AwbMode"] != nil { controls["AwbMode"] = .int(whiteBalance.libcameraValue) }
        if camera.controls["AwbEnable"] != nil { controls["AwbEnable"] = .bool(true) }
        return controls.filter { name, _ in camera.controls[name] != nil }
    }
}
