// `zoom FACTOR`: digital zoom through the camera's crop, from 1.0 (none) to its limit.

import PinholeAppliance

/// `zoom FACTOR`.
public struct ZoomCommand: ConsoleCommand {
    /// The zoom factor (1 is none).
    public var factor: Double

    /// Creates the command.
    public init(factor: Double) { self.factor = factor }

    /// The `zoom` verb.
    public static let definition = CommandDefinition(
        "zoom", group: .camera, access: .pin,
        forms: [form("zoom FACTOR", "digital zoom from 1.0 (none) to the camera's limit", "zoom 2", "zoom 1")]
    ) { words in
        guard let factor = words.single(Double.init) else {
            throw ConsoleError.usage("usage: zoom FACTOR (1.0 is none, e.g. zoom 2)")
        }
        return ZoomCommand(factor: factor)
    }

    /// Sets the zoom (refused outside the camera's range).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        try console.appliance.engine.setZoom(factor)
        reply(.success("ok zoom \(factor)"))
    }
}

extension ZoomCommand {
    /// The zoom on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 120) { menu in
            MenuItem(
                "Zoom", value: menu.snapshot.status?.zoom.map { "\(CameraPage.rounded($0))x" } ?? "-",
                action: .ask(
                    Prompt("Zoom: 1 (none) up to the camera's limit", .word(before: ["zoom"]), initial: "1")))
        }
    ]
}
