// `lens DIOPTRES`: the manual lens position.

import PinholeAppliance

/// `lens DIOPTRES` (0 is infinity).
public struct LensCommand: ConsoleCommand {
    /// The lens position in dioptres.
    public var dioptres: Double

    /// Creates the command.
    public init(dioptres: Double) { self.dioptres = dioptres }

    /// The `lens` verb.
    public static let definition = CommandDefinition(
        "lens", group: .camera, access: .pin,
        forms: [form("lens DIOPTRES", "manual lens position (0 = infinity)", "lens 2")]
    ) { words in
        guard let dioptres = words.single(Double.init) else {
            throw ConsoleError.usage("usage: lens DIOPTRES (e.g. lens 2 for 0.5 m, lens 0 for infinity)")
        }
        return LensCommand(dioptres: dioptres)
    }

    /// Moves the lens (checked against what the camera reports).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        try console.appliance.engine.focus.setLens(dioptres)
        reply(.success("ok lens \(dioptres)"))
    }
}

extension LensCommand {
    /// The lens position on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 50) { menu in
            MenuItem(
                "Lens position",
                value: menu.snapshot.status?.lensPosition.map { "\(CameraPage.rounded($0)) dioptres" } ?? "-",
                action: .ask(Prompt("Lens position in dioptres (0 = infinity)", .word(before: ["lens"]))))
        }
    ]
}
