// `camera`: list the cameras, switch to the next one, select one, choose the still size.

import PinholeAppliance
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

    /// The `camera` verb.
    public static let definition = CommandDefinition(
        "camera",
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
            let camera = try appliance.switchCamera()
            console.answerReports(eventsStartingWith: ["camera "])
            reply(.success("ok camera \(camera.id) \(engine.position(of: camera).rawValue)"))
        case .select(let id):
            try appliance.selectCamera(id)
            let camera = engine.current!
            console.answerReports(eventsStartingWith: ["camera "])
            reply(.success("ok camera \(camera.id) \(engine.position(of: camera).rawValue)"))
        case .size(let width, let height):
            try engine.setStillSize(PixelSize(width: width, height: height))
            reply(.success("ok camera size \(width)x\(height)"))
        }
    }
}
