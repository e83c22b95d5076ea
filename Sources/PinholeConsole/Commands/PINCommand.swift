// `pin set NEW_PIN`, `pin clear`: change or remove the console PIN in the configuration file.

import PinholeAppliance

/// `pin set NEW_PIN`, `pin clear`.
public enum PINCommand: ConsoleCommand {
    /// A new PIN (a secret).
    case set(String)
    /// No PIN: everything open.
    case clear

    /// The `pin` verb.
    public static let definition = CommandDefinition(
        "pin", group: .console, access: .pin,
        forms: [
            form("pin set NEW_PIN", "change the console PIN (needs the PIN)", "pin set 2468"),
            form("pin clear", "remove the console PIN (needs the PIN)", "pin clear"),
        ]
    ) { words in
        switch words[0] {
        case "clear":
            guard words.count == 1 else { throw ConsoleError.usage("usage: pin clear") }
            return PINCommand.clear
        case "set":
            guard words.count == 2 else { throw ConsoleError.usage("usage: pin set NEW_PIN") }
            return PINCommand.set(words[1]!)
        default:
            throw ConsoleError.usage("usage: pin set NEW_PIN | pin clear")
        }
    }

    /// A new PIN is a secret.
    public var isSecret: Bool {
        if case .set = self { return true }
        return false
    }

    /// The menu asks for `pin` (or `remove`) first.
    public var confirmation: ConfirmationQuestion? {
        switch self {
        case .set: return ConfirmationQuestion("Save the new PIN to the configuration file?", word: "pin")
        case .clear:
            return ConfirmationQuestion(
                "Remove the PIN (library and settings open to anyone)?", word: "remove")
        }
    }

    /// Saves the new PIN's hash (made on the worker: it is slow on purpose), or removes it.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        guard let store = console.settingsStore else {
            throw ConsoleError.unavailable("settings cannot be saved here: no configuration file")
        }
        switch self {
        case .clear:
            try store.setPINHash(nil)
            console.access.pinHash = nil
            reply(.success("ok PIN removed: library and settings are open to anyone at the console"))
        case .set(let newPIN):
            let pin = try PINRules.validate(newPIN)
            guard let hashing = console.pinHashing else {
                throw ConsoleError.unavailable("PIN hashing is not available here")
            }
            console.appliance.loop.offload(
                { Result { try hashing.hash(pin) } },
                then: { [weak console] result in
                    guard let console else { return }
                    do {
                        let hash = try result.get()
                        try store.setPINHash(hash)
                        console.access.pinHash = hash
                        _ = console.access.record(correct: true, at: console.appliance.loop.now)
                        reply(.success("ok PIN changed and saved to \(store.file)"))
                    } catch {
                        reply(.failure(error))
                    }
                })
        }
    }
}
