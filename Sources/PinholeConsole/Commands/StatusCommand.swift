// `status [--json]`: camera, exposure, torch, photos, storage, field work, GPS, clock and access.

import PinholeAppliance

/// `status [--json]`.
public struct StatusCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `status` verb.
    public static let definition = CommandDefinition(
        "status", group: .appliance,
        forms: [form("status [--json]", "camera, exposure, torch, photos, storage, last capture", "status")]
    ) { words in
        try words.finish(usage: "status [--json]")
        return StatusCommand()
    }

    /// Answers with the appliance's status and the console's access state.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        let appliance = console.appliance
        let status = appliance.status()
        let access = console.access.describe(at: appliance.loop.now)
        if json {
            reply(.success(jsonLine(StatusAnswer(status: status, access: access))))
            return
        }
        let zoom = (status.zoom ?? 1) > 1 ? " zoom \(status.zoom!)x" : ""
        let camera =
            status.camera.map { "\($0.model) (\($0.position)) \($0.stillSize)\(zoom)" }
            ?? status.cameraMissing.map { "missing (\($0))" } ?? "none"
        let photos = status.photos.map(String.init) ?? "?"
        reply(
            .success(
                "ok camera \(camera)" + (status.mode.map { ", mode \($0)" } ?? "")
                    + ", torch \(status.torch ? "on" : "off"), photos \(photos)"
                    + (status.busy ? ", busy" : "") + status.fieldSummary
                    + ", gps \(status.gps ?? "off"), clock \(status.clock ?? "unknown")"
                    + ", access \(access)"))
    }
}

/// The `status --json` answer: the appliance's status plus the console's access state.
struct StatusAnswer: Encodable {
    var status: ApplianceStatus
    var access: String

    private enum Key: String, CodingKey { case access }

    func encode(to encoder: Encoder) throws {
        try status.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(access, forKey: .access)
    }
}
