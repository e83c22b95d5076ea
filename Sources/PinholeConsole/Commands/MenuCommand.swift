// `menu`: switch a terminal console to the interactive menu.

/// `menu`.
public struct MenuCommand: ConsoleCommand {
    /// Creates the command.
    public init() {}

    /// The `menu` verb.
    public static let definition = CommandDefinition(
        "menu", group: .console,
        forms: [form("menu", "switch to the interactive menu (on a terminal)", "menu")]
    ) { words in
        try words.finish(usage: "menu")
        return MenuCommand()
    }

    /// Answers, then switches (refused on a pipe).
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        guard let onMenu = console.onMenu else {
            throw ConsoleError.unavailable("the menu needs a terminal: this console is a pipe")
        }
        reply(.success("ok menu"))
        onMenu()
    }
}

extension MenuCommand {
    /// Line mode on the main page, where the console can switch (`menu` comes back from it).
    public static let menuEntries = [
        MenuEntry(.main, at: 30) { menu in
            guard menu.snapshot.canSwitchToLineMode else { return [] }
            return [MenuItem("Line mode", value: "for scripts; type `menu` to come back", action: .lineMode)]
        }
    ]
}
