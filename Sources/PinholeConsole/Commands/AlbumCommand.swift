// `album current NAME|off`: the album every new photo goes into.

import PinholeAppliance

/// `album current NAME|off`.
public struct AlbumCommand: ConsoleCommand {
    /// The album's title (nil: none).
    public var current: String?

    /// Creates the command.
    public init(current: String?) { self.current = current }

    /// The `album` verb.
    public static let definition = CommandDefinition(
        "album", group: .library, access: .pin,
        forms: [
            form(
                "album current NAME|off", "put every new photo into album NAME (off: none)",
                "album current Trip", "album current off")
        ]
    ) { words in
        guard words.count == 2, words[0] == "current", let name = words[1], !name.isEmpty else {
            throw ConsoleError.usage("usage: album current NAME|off")
        }
        return AlbumCommand(current: name == "off" ? nil : name)
    }

    /// Sets the current album (saved with the camera settings).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        try console.appliance.engine.setCurrentAlbum(current)
        reply(.success(current.map { "ok album current \($0)" } ?? "ok album current off"))
    }
}
