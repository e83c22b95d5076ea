// The Camera page: switch camera, focus, exposure, white balance, flash, torch.

import PinholeAppliance

/// Camera controls. Values come from the status; every change is a console command, so
/// the camera checks it against what it supports and the answer says why when it cannot.
enum CameraPage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        let status = menu.snapshot.status
        let current = menu.snapshot.cameras.first { $0.current }
        var items: [MenuItem] = [
            MenuItem(
                "Switch camera", value: current.map { "\($0.model) (\($0.position))" } ?? "none",
                action: .run(CameraCommand.switchNext)),
            MenuItem(
                "Select camera", value: menu.snapshot.cameras.map(\.id).joined(separator: ", "),
                action: .ask(Prompt("Camera id or model", .word(before: ["camera", "select"])))),
            MenuItem(
                "AF mode", value: status.map { "\($0.afMode) (\($0.afState))" } ?? "-",
                action: .ask(Prompt("AF mode: manual, auto or continuous", .word(before: ["af", "mode"])))),
            MenuItem(
                "AF point", value: "x y from 0 to 1",
                action: .ask(
                    Prompt(
                        "AF point: x y (0…1, 0.5 0.5 is the centre)", .words(before: ["af", "point"]),
                        initial: "0.5 0.5"))),
            MenuItem(
                "Lens position", value: status?.lensPosition.map { "\(rounded($0)) dioptres" } ?? "-",
                action: .ask(Prompt("Lens position in dioptres (0 = infinity)", .word(before: ["lens"])))),
            MenuItem(
                "Exposure", value: exposure(status),
                action: .ask(
                    Prompt(
                        "Exposure: auto, or manual TIME_US GAIN", .words(before: ["exposure"]),
                        initial: "auto"))),
            MenuItem(
                "EV compensation", value: "stops",
                action: .ask(Prompt("EV compensation in stops (-2…2)", .word(before: ["ev"]), initial: "0"))),
            MenuItem(
                "Metering", value: "centre, spot, matrix",
                action: .ask(Prompt("Metering: centre, spot or matrix", .word(before: ["metering"])))),
            MenuItem(
                "White balance", value: "auto or a preset",
                action: .ask(
                    Prompt(
                        "White balance: auto, daylight, cloudy, tungsten, fluorescent, indoor",
                        .word(before: ["awb"]), initial: "auto"))),
            MenuItem(
                "Flash", value: status?.flash ?? "-",
                action: .ask(Prompt("Flash: off, on or auto", .word(before: ["flash"])))),
        ]
        // Framing and metering after the older items (their numbers stay), the torch last.
        items += [
            MenuItem(
                "AE point",
                value: status?.aePoint.map { "\(rounded($0[0])) \(rounded($0[1]))" } ?? "metering mode",
                action: .ask(
                    Prompt(
                        "AE point: x y (0…1, 0 0 is the top left), or off", .words(before: ["ae", "point"]),
                        initial: "0.5 0.5"))),
            MenuItem(
                "Zoom", value: status?.zoom.map { "\(rounded($0))x" } ?? "-",
                action: .ask(
                    Prompt("Zoom: 1 (none) up to the camera's limit", .word(before: ["zoom"]), initial: "1"))),
            MenuItem(
                "Still size", value: status?.camera?.stillSize ?? "-",
                action: .ask(
                    Prompt(
                        "Still size WxH: " + (current?.stillSizes.joined(separator: ", ") ?? ""),
                        .word(before: ["camera", "size"])))),
        ]
        let torch = status?.torch ?? false
        items.append(
            MenuItem("Torch", value: torch ? "on" : "off", action: .run(TorchCommand(on: !torch))))
        return items
    }

    private static func exposure(_ status: PinholeAppliance.ApplianceStatus?) -> String {
        guard let status, let time = status.exposureTimeUs else { return "-" }
        var text = StatusLine.shutter(microseconds: time)
        if let gain = status.gain { text += " gain \(rounded(gain))" }
        if let lux = status.lux { text += ", scene \(Int(lux.rounded())) lux" }
        return text
    }

    static func rounded(_ value: Double) -> String {
        let hundredths = (value * 100).rounded() / 100
        return hundredths == hundredths.rounded() ? "\(Int(hundredths))" : "\(hundredths)"
    }
}
