// The Camera page: switch camera, focus, exposure, white balance, flash, torch.

import PinholeAppliance

/// Camera controls. Values come from the status; every change is a console command, so
/// the camera checks it against what it supports and the answer says why when it cannot.
enum CameraPage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        // In position order: camera, af, lens, exposure, ev, metering, awb, flash, then ae,
        // zoom and the still size after the older items (their numbers stay), the torch last.
        CommandCatalog.menuItems(on: .camera, menu)
    }

    /// The exposure as the Camera page shows it: time, gain and scene light.
    static func exposure(_ status: PinholeAppliance.ApplianceStatus?) -> String {
        guard let status, let time = status.exposureTimeUs else { return "-" }
        var text = StatusLine.shutter(microseconds: time)
        if let gain = status.gain { text += " gain \(rounded(gain))" }
        if let lux = status.lux { text += ", scene \(Int(lux.rounded())) lux" }
        return text
    }

    /// A value with at most two decimals, without trailing zeros.
    static func rounded(_ value: Double) -> String {
        let hundredths = (value * 100).rounded() / 100
        return hundredths == hundredths.rounded() ? "\(Int(hundredths))" : "\(hundredths)"
    }
}
