// `shutdown [--poweroff]`: stop the appliance safely (and power the board off).

/// `shutdown [--poweroff]`.
public struct ShutdownCommand: ConsoleCommand {
    /// Whether the board powers off too.
    public var powerOff: Bool

    /// Creates the command.
    public init(powerOff: Bool) { self.powerOff = powerOff }

    /// The `shutdown` verb.
    public static let definition = CommandDefinition(
        "shutdown", group: .appliance, access: .pin,
        forms: [
            form(
                "shutdown [--poweroff]",
                "stop the camera, close the library and exit (and power the board off)",
                "shutdown", "shutdown --poweroff")
        ]
    ) { words in
        guard words.count == 0 || words.all == ["--poweroff"] else {
            throw ConsoleError.usage("usage: shutdown [--poweroff]")
        }
        return ShutdownCommand(powerOff: words.count == 1)
    }

    /// The menu asks for `shutdown` (or `poweroff`) first.
    public var confirmation: ConfirmationQuestion? {
        powerOff
            ? ConfirmationQuestion("Shut down and power the board off now?", word: "poweroff")
            : ConfirmationQuestion("Shut Pinhole down now?", word: "shutdown")
    }

    /// Answers, then stops (as `quit` does where no shutdown is wired).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        reply(.success(powerOff ? "ok shutting down and powering off" : "ok shutting down"))
        if let onShutdown = console.onShutdown { onShutdown(powerOff) } else { console.onQuit?() }
    }
}

extension ShutdownCommand {
    /// Safe shutdown and power off on the System page.
    public static let menuEntries = [
        MenuEntry(.system, at: 20) { _ in
            MenuItem(
                "Safe shutdown", value: "stop the camera and close the library",
                action: .run(ShutdownCommand(powerOff: false)))
        },
        MenuEntry(.system, at: 30) { _ in
            MenuItem(
                "Power off", value: "safe shutdown, then power the board off",
                action: .run(ShutdownCommand(powerOff: true)))
        },
    ]
}
