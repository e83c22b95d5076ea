// The camera settings in `settings` and `set camera.KEY VALUE`: the same engine calls as the direct commands.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    /// The camera settings with their values, as `settings` shows them (saved in the
    /// settings file, not the configuration file).
    var cameraSettingValues: [(key: String, value: String)] {
        let engine = appliance.engine
        let settings = engine.savedSettings
        var values: [(String, String)] = []
        switch settings.exposure.mode {
        case .auto: values.append(("camera.exposure", "auto"))
        case .manual(let time, let gain):
            values += [
                ("camera.exposure", "manual"), ("camera.exposure_time_us", "\(time.nanoseconds / 1000)"),
                ("camera.gain", "\(gain)"),
            ]
        }
        values += [
            ("camera.ev", "\(settings.exposure.ev)"),
            ("camera.metering", settings.exposure.metering.rawValue),
            ("camera.awb", settings.exposure.whiteBalance.rawValue),
            ("camera.flash", engine.flash.mode.rawValue),
            ("camera.af_mode", engine.focus.status.mode), ("camera.af_range", settings.afRange.rawValue),
            ("camera.af_speed", settings.afSpeed.rawValue), ("camera.album", settings.album ?? "off"),
            ("camera.ae_point", settings.exposure.point.map { "\($0.x),\($0.y)" } ?? "off"),
        ]
        if engine.current != nil {
            values.append(("camera.zoom", "\(engine.zoom)"))
            if let size = engine.stillSize { values.append(("camera.size", size.description)) }
        }
        if let camera = engine.current, let lens = settings.cameras[camera.id]?.lens,
            settings.afMode == .manual
        {
            values.append(("camera.lens", "\(lens)"))
        }
        return values
    }

    /// `set camera.KEY VALUE`: runs the direct command the key stands for.
    func setCameraSetting(_ key: String, _ value: String, reply: @escaping (Result<String, Error>) -> Void)
        throws
    {
        let words: [String]
        switch key {
        case "camera.exposure":
            guard value == "auto" else {
                throw ConsoleError.usage(
                    "camera.exposure is auto; for manual set camera.exposure_time_us or camera.gain")
            }
            words = ["exposure", "auto"]
        case "camera.exposure_time_us", "camera.gain":
            let (time, gain) = manualExposure
            words =
                key == "camera.gain"
                ? ["exposure", "manual", "\(time)", value] : ["exposure", "manual", value, "\(gain)"]
        case "camera.ev": words = ["ev", value]
        case "camera.metering": words = ["metering", value]
        case "camera.awb": words = ["awb", value]
        case "camera.flash": words = ["flash", value]
        case "camera.af_mode": words = ["af", "mode", value]
        case "camera.af_range": words = ["af", "range", value]
        case "camera.af_speed": words = ["af", "speed", value]
        case "camera.lens": words = ["lens", value]
        case "camera.album": words = ["album", "current", value]
        case "camera.zoom": words = ["zoom", value]
        case "camera.size": words = ["camera", "size", value]
        case "camera.ae_point":
            let parts = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard value == "off" || parts.count == 2 else {
                throw ConsoleError.usage("camera.ae_point is X,Y (0…1, 0,0 is the top left) or off")
            }
            words = value == "off" ? ["ae", "point", "off"] : ["ae", "point"] + parts
        default:
            let keys = Self.cameraSettingKeys.joined(separator: ", ")
            throw ConsoleError.usage("no setting '\(key)': camera settings are \(keys)")
        }
        let invocation = try CommandCatalog.parse(words: words, options: false)
        try invocation.command.run(on: self, json: false) { result in
            reply(result.map { _ in "ok \(key) \(value) saved (restored at the next start)" })
        }
    }

    /// Every camera setting key.
    static let cameraSettingKeys = [
        "camera.exposure", "camera.exposure_time_us", "camera.gain", "camera.ev", "camera.metering",
        "camera.awb",
        "camera.flash", "camera.af_mode", "camera.af_range", "camera.af_speed", "camera.lens",
        "camera.album", "camera.ae_point", "camera.zoom", "camera.size",
    ]

    /// The manual exposure in force, else the exposure of the latest frame (as `exposure manual`
    /// would take it over).
    private var manualExposure: (timeUs: Int64, gain: Double) {
        let engine = appliance.engine
        if case .manual(let time, let gain) = engine.exposure.mode { return (time.nanoseconds / 1000, gain) }
        guard let frame = engine.lastFrame, frame.exposureTime > .zero else { return (10_000, 1) }
        return (frame.exposureTime.nanoseconds / 1000, max(1, frame.analogueGain))
    }
}
