// `quit` (also `exit`): leave the console.

/// `quit`.
public struct QuitCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `quit` verb.
    public static let definition = CommandDefinition(
        "quit", group: .console, aliases: ["exit"],
        forms: [form("quit", "leave the console (the appliance keeps running under systemd)", "quit")]
    ) { _ in QuitCommand() }

    /// The menu asks for `quit` first.
    public var confirmation: ConfirmationQuestion? { ConfirmationQuestion("Stop Pinhole?", word: "quit") }

    /// Answers, then leaves. On a serial device `quit` stops the appliance's service until it
    /// is started again (systemd does not restart a clean exit): a locked console is refused,
    /// and the answer says so.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        guard console.quitStopsTheService else {
            reply(.success("ok bye"))
            console.onQuit?()
            return
        }
        guard console.access.isUnlocked(at: console.appliance.loop.now) else {
            throw ConsoleError.locked(
                "locked: quit on the serial console stops the Pinhole service until it is started again "
                    + "(systemctl start pinhole, or a reboot): unlock with the PIN first")
        }
        reply(
            .success(
                "ok bye: the Pinhole service stops (systemctl start pinhole, or a reboot, starts it again)"))
        console.onQuit?()
    }
}

extension QuitCommand {
    /// Quit, last on the main page, where the console may stop Pinhole.
    public static let menuEntries = [
        MenuEntry(.main, at: 40) { menu in
            menu.snapshot.canQuit
                ? [MenuItem("Quit", value: "stop Pinhole", action: .run(QuitCommand()))] : []
        }
    ]
}
