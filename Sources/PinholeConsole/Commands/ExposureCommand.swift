// `exposure auto`, `exposure manual TIME_US GAIN`: automatic or manual exposure.

import PinholeAppliance

/// `exposure auto`, `exposure manual TIME_US GAIN`.
public enum ExposureCommand: ConsoleCommand {
    /// Automatic exposure.
    case auto
    /// Manual exposure time (microseconds) and gain.
    case manual(timeUs: Int, gain: Double)

    /// The `exposure` verb.
    public static let definition = CommandDefinition(
        "exposure", group: .camera, access: .pin,
        forms: [
            form("exposure auto", "automatic exposure", "exposure auto"),
            form("exposure manual TIME_US GAIN", "manual exposure time and gain", "exposure manual 10000 2"),
        ]
    ) { words in
        switch words[0] {
        case "auto":
            try words.expect(words.count == 1, "usage: exposure auto")
            return ExposureCommand.auto
        case "manual":
            guard words.count == 3, let time = Int(words[1]!), time > 0, let gain = Double(words[2]!)
            else {
                throw ConsoleError.usage("usage: exposure manual TIME_US GAIN (e.g. exposure manual 10000 2)")
            }
            return ExposureCommand.manual(timeUs: time, gain: gain)
        default:
            throw ConsoleError.usage("usage: exposure auto | exposure manual TIME_US GAIN")
        }
    }

    /// Sets the exposure (checked against what the camera reports).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        let engine = console.appliance.engine
        switch self {
        case .auto:
            try engine.setExposure(.auto)
            reply(.success("ok exposure auto"))
        case .manual(let time, let gain):
            try engine.setExposure(.manual(time: .microseconds(time), gain: gain))
            reply(.success("ok exposure manual \(time) us gain \(gain)"))
        }
    }
}

extension ExposureCommand {
    /// The exposure (time, gain and scene light as the value) on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 60) { menu in
            MenuItem(
                "Exposure", value: CameraPage.exposure(menu.snapshot.status),
                action: .ask(
                    Prompt(
                        "Exposure: auto, or manual TIME_US GAIN", .words(before: ["exposure"]),
                        initial: "auto")))
        }
    ]
}
