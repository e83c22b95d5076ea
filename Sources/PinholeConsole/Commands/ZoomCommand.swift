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
        "zoom",
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
