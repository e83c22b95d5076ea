// `lock`: the library and settings need the PIN again.

/// `lock`.
public struct LockCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `lock` verb.
    public static let definition = CommandDefinition(
        "lock", group: .console, forms: [form("lock", "lock the library and settings again", "lock")]
    ) { words in
        guard words.count == 0 else { throw ConsoleError.usage("usage: lock") }
        return LockCommand()
    }

    /// Locks (and says so when there is no PIN to lock with).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) {
        console.access.lock()
        reply(
            .success(console.access.hasPIN ? "ok locked" : "ok no PIN is set: library and settings stay open")
        )
    }
}

extension LockCommand {
    /// Lock on the main page, while a PIN is set and the console is unlocked.
    public static let menuEntries = [
        MenuEntry(.main, at: 10) { menu in
            let access = menu.snapshot.access
            guard access.pinConfigured, access.unlocked else { return [] }
            return [
                MenuItem(
                    "Lock", value: "library and settings need the PIN again", action: .run(LockCommand()))
            ]
        }
    ]
}
