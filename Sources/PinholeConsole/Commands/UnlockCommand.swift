// `unlock PIN`: open the library and settings until the console is idle or locked.

import PinholeAppliance

/// `unlock PIN`.
public struct UnlockCommand: ConsoleCommand {
    /// The PIN as typed (a secret).
    public var pin: String

    /// Creates the command.
    public init(pin: String) { self.pin = pin }

    /// The `unlock` verb.
    public static let definition = CommandDefinition(
        "unlock", group: .console,
        forms: [form("unlock PIN", "unlock the library and settings (when a PIN is set)", "unlock 2468")]
    ) { words in
        guard words.count == 1 else { throw ConsoleError.usage("usage: unlock PIN") }
        return UnlockCommand(pin: words[0]!)
    }

    /// The PIN is a secret.
    public var isSecret: Bool { true }

    /// Checks the PIN on the worker (the hash is slow on purpose), counting wrong ones
    /// towards a lock-out.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        guard let hash = console.access.pinHash else {
            reply(.success("ok no PIN is set: everything is open"))
            return
        }
        guard let hashing = console.pinHashing else {
            throw ConsoleError.unavailable("PIN checking is not available here")
        }
        let now = console.appliance.loop.now
        guard console.access.mayTry(at: now) else {
            throw ConsoleError.locked(
                "locked: too many wrong PINs, try again in \(console.access.lockoutRemaining(at: now)) s")
        }
        let pin = self.pin
        console.appliance.loop.offload(
            { hashing.verify(pin, hash) },
            then: { [weak console] correct in
                guard let console else { return }
                switch console.access.record(correct: correct, at: console.appliance.loop.now) {
                case .unlocked:
                    let minutes = Int(console.access.idleTimeout.seconds / 60)
                    reply(.success("ok unlocked (locks again after \(minutes) min without input)"))
                case .wrong(let remaining):
                    reply(
                        .failure(ConsoleError.locked("wrong PIN: \(remaining) more tries before a lock-out")))
                case .lockedOut(let seconds):
                    reply(.failure(ConsoleError.locked("wrong PIN: locked out for \(seconds) s")))
                }
            })
    }
}

extension UnlockCommand {
    /// Unlock on the main page, while a PIN is set and the console is locked.
    public static let menuEntries = [
        MenuEntry(.main, at: 20) { menu in
            let access = menu.snapshot.access
            guard access.pinConfigured, !access.unlocked else { return [] }
            return [
                MenuItem(
                    "Unlock", value: "enter the PIN",
                    action: .ask(Prompt("PIN to unlock", .word(before: ["unlock"]), secret: true)))
            ]
        }
    ]
}
