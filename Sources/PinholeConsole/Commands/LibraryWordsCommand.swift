// `library …`: the photo library's own command language, run off the loop.

import PinholeAppliance

/// `library WORDS…`: the library command language (`pinhole library`), as words, never
/// re-split; its own parser reads them, `--json` included.
public struct LibraryWordsCommand: ConsoleCommand {
    /// The words after `library`.
    public var words: [String]

    /// Creates the command.
    public init(_ words: [String]) { self.words = words }

    /// The `library` verb: its words go to the library's language untouched.
    public static let definition = CommandDefinition(
        "library", group: .library, access: .pin, wordsAsTyped: true,
        forms: [form("library …", "the photo library (library help)", "library help")]
    ) { words in LibraryWordsCommand(words.all) }

    /// Deleting, purging, reverting an edit and deleting an album are confirmed in the menu.
    public var confirmation: ConfirmationQuestion? {
        let verbs = words.filter { !$0.hasPrefix("--") }
        switch verbs.first {
        case "delete": return ConfirmationQuestion("Move to Recently Deleted?", word: "delete")
        case "purge": return ConfirmationQuestion("Delete permanently (cannot be undone)?", word: "purge")
        case "edit" where verbs.dropFirst().first == "revert":
            return ConfirmationQuestion("Revert to the original (the edit is discarded)?", word: "revert")
        case "album" where verbs.dropFirst().first == "delete":
            return ConfirmationQuestion("Delete this album (its photos stay)?", word: "delete")
        default: return nil
        }
    }

    /// Runs the words on the long-work thread: fsck --verify, import and export take long,
    /// and buttons, LEDs, the watchdog and captures go on meanwhile.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        guard let library = console.library else { throw ConsoleError.unavailable("no library is open") }
        let words = self.words
        console.appliance.loop.offloadLong({ Result { try library(words) } }) { result in
            reply(
                result.map { output in
                    let line = output.split(separator: "\n").joined(separator: " ")
                    return json || line.hasPrefix("ok") ? line : "ok " + line
                })
        }
    }
}

extension LibraryWordsCommand {
    /// The library check on the System page.
    public static let menuEntries = [
        MenuEntry(.system, at: 10) { _ in
            MenuItem(
                "Check the library", value: "fsck", action: .run(LibraryWordsCommand(["fsck"])),
                needsPIN: true)
        }
    ]
}
