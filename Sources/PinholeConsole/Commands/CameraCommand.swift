// `camera`: list the cameras, switch to the next one, select one, choose the still size.

import PinholeAppliance
import PinholeCapture
import PinholeCore

/// `camera list [--json]`, `camera switch`, `camera select ID`, `camera size WxH`.
public enum CameraCommand: ConsoleCommand {
    /// Every camera with its sizes and controls.
    case list
    /// The next camera.
    case switchNext
    /// A camera by id or model.
    case select(String)
    /// The still size (one the camera lists).
    case size(width: Int, height: Int)

    /// The still size is saved per camera: it needs the PIN. Listing and choosing the camera
    /// are open (the choice is not saved).
    public var access: CommandAccess {
        if case .size = self { return .pin }
        return .open
    }

    /// The `camera` verb.
    public static let definition = CommandDefinition(
        "camera", group: .camera,
        forms: [
            form("camera list [--json]", "cameras with their sizes and controls", "camera list"),
            form("camera switch", "switch to the next camera", "camera switch"),
            form("camera select ID", "switch to a camera by id or model", "camera select imx477"),
            form(
                "camera size WxH", "still size: one the camera lists (camera list shows them)",
                "camera size 2028x1520"),
        ]
    ) { words in
        let usage = "usage: camera list [--json] | camera switch | camera select ID | camera size WxH"
        switch (words[0], words.count) {
        case ("list", 1): return CameraCommand.list
        case ("switch", 1): return CameraCommand.switchNext
        case ("select", 2): return CameraCommand.select(words[1]!)
        case ("select", _): throw ConsoleError.usage("usage: camera select ID")
        case ("size", 2):
            guard let size = PixelSize(text: words[1]!) else {
                throw ConsoleError.usage("usage: camera size WxH (e.g. camera size 2028x1520)")
            }
            return CameraCommand.size(width: size.width, height: size.height)
        case ("size", _): throw ConsoleError.usage("usage: camera size WxH (e.g. camera size 2028x1520)")
        default: throw ConsoleError.usage(usage)
        }
    }

    /// Lists, switches, selects or resizes, and answers with the camera.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        let appliance = console.appliance
        let engine = appliance.engine
        switch self {
        case .list:
            let listings = engine.cameras.map { CameraListing($0, engine: engine) }
            if json {
                reply(.success(jsonLine(listings)))
            } else {
                reply(
                    .success(
                        "ok "
                            + (listings.isEmpty ? "no cameras" : listings.map(\.line).joined(separator: "; "))
                    ))
            }
        case .switchNext:
            // The switch goes through the camera's session: the answer comes once the new
            // camera streams (or with why it does not), and the loop runs meanwhile.
            try appliance.switchCamera { error in
                Self.answer(error, console: console, reply: reply)
            }
        case .select(let id):
            try appliance.selectCamera(id) { error in
                Self.answer(error, console: console, reply: reply)
            }
        case .size(let width, let height):
            try engine.setStillSize(PixelSize(width: width, height: height)) { error in
                reply(error.map { .failure($0) } ?? .success("ok camera size \(width)x\(height)"))
            }
        }
    }

    /// The answer to a switch: the camera now running, or the error.
    private static func answer(_ error: (any Error)?, console: LineModeConsole, reply: CommandReply) {
        let engine = console.appliance.engine
        if let error { return reply(.failure(error)) }
        guard let camera = engine.current else { return reply(.failure(CaptureError.noCamera)) }
        console.answerReports(eventsStartingWith: ["camera "])
        reply(.success("ok camera \(camera.id) \(engine.position(of: camera).rawValue)"))
    }
}

extension CameraCommand {
    /// Switch and select first on the Camera page, the still size after the framing controls.
    public static let menuEntries = [
        MenuEntry(.camera, at: 10) { menu in
            let current = menu.snapshot.cameras.first { $0.current }
            return MenuItem(
                "Switch camera", value: current.map { "\($0.model) (\($0.position))" } ?? "none",
                action: .run(CameraCommand.switchNext))
        },
        MenuEntry(.camera, at: 20) { menu in
            MenuItem(
                "Select camera", value: menu.snapshot.cameras.map(\.id).joined(separator: ", "),
                action: .ask(Prompt("Camera id or model", .word(before: ["camera", "select"]))))
        },
        MenuEntry(.camera, at: 130) { menu in
            let current = menu.snapshot.cameras.first { $0.current }
            return MenuItem(
                "Still size", value: menu.snapshot.status?.camera?.stillSize ?? "-",
                action: .ask(
                    Prompt(
                        "Still size WxH: " + (current?.stillSizes.joined(separator: ", ") ?? ""),
                        .word(before: ["camera", "size"]))))
        },
    ]
}
