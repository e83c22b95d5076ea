// `flash off|on|auto`: the torch LED as flash.

import PinholeAppliance
import PinholeImaging

/// `flash off|on|auto`.
public struct FlashCommand: ConsoleCommand {
    /// The flash mode.
    public var mode: FlashMode

    /// Creates the command.
    public init(mode: FlashMode) { self.mode = mode }

    /// The `flash` verb.
    public static let definition = CommandDefinition(
        "flash", group: .camera, access: .pin,
        forms: [form("flash off|on|auto", "the torch as flash", "flash auto")]
    ) { words in
        guard let mode = words.single(FlashMode.init(rawValue:)) else {
            throw ConsoleError.usage("usage: flash off|on|auto")
        }
        return FlashCommand(mode: mode)
    }

    /// Sets the flash mode (refused on a camera without a torch).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        try console.appliance.engine.setFlashMode(mode)
        reply(.success("ok flash \(mode.rawValue)"))
    }
}

extension FlashCommand {
    /// The flash mode on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 100) { menu in
            MenuItem(
                "Flash", value: menu.snapshot.status?.flash ?? "-",
                action: .ask(Prompt("Flash: off, on or auto", .word(before: ["flash"]))))
        }
    ]
}
