// Line-mode settings commands: list, change (saved to the configuration file), the PIN.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func settingsCommand(
        _ command: String, _ args: [String], json: Bool,
        reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        guard let store = settingsStore else {
            throw ConsoleError.unavailable("settings cannot be saved here: no configuration file")
        }
        switch command {
        case "settings":
            guard args.isEmpty else { throw ConsoleError.usage("usage: settings [--json]") }
            if json {
                reply(
                    .success(
                        jsonLine(Dictionary(uniqueKeysWithValues: store.values.map { ($0.key, $0.value) }))))
            } else {
                reply(.success("ok " + store.values.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))
            }
        case "set":
            guard args.count == 2 else {
                throw ConsoleError.usage("usage: set KEY VALUE (settings lists the keys)")
            }
            reply(.success(try store.set(args[0], args[1])))
        default:
            try pinCommand(args, store: store, reply: reply)
        }
    }

    private func pinCommand(
        _ args: [String], store: ConsoleSettings,
        reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        switch args.first {
        case "clear":
            guard args.count == 1 else { throw ConsoleError.usage("usage: pin clear") }
            try store.setPINHash(nil)
            access.pinHash = nil
            reply(.success("ok PIN removed: library and settings are open to anyone at the console"))
        case "set":
            guard args.count == 2 else { throw ConsoleError.usage("usage: pin set NEW_PIN") }
            let pin = try PINRules.validate(args[1])
            guard let hashing = pinHashing else {
                throw ConsoleError.unavailable("PIN hashing is not available here")
            }
            appliance.loop.offload(
                { Result { try hashing.hash(pin) } },
                then: { [weak self] result in
                    guard let self else { return }
                    do {
                        let hash = try result.get()
                        try store.setPINHash(hash)
                        self.access.pinHash = hash
                        _ = self.access.record(correct: true, at: self.appliance.loop.now)
                        reply(.success("ok PIN changed and saved to \(store.file)"))
                    } catch {
                        reply(.failure(error))
                    }
                })
        default:
            throw ConsoleError.usage("usage: pin set NEW_PIN | pin clear")
        }
    }
}
