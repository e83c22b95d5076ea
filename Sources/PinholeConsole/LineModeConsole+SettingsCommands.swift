// Line-mode settings commands: list, change (saved to the configuration file), the PIN.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func settingsCommand(
        _ command: ConsoleCommand, json: Bool,
        reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        guard let store = settingsStore else {
            throw ConsoleError.unavailable("settings cannot be saved here: no configuration file")
        }
        switch command {
        case .settings:
            if json {
                reply(
                    .success(
                        jsonLine(Dictionary(uniqueKeysWithValues: store.values.map { ($0.key, $0.value) }))))
            } else {
                reply(.success("ok " + store.values.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))
            }
        case .set(let key, let value):
            reply(.success(try store.set(key, value)))
        default:
            try pinCommand(command, store: store, reply: reply)
        }
    }

    private func pinCommand(
        _ command: ConsoleCommand, store: ConsoleSettings,
        reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        switch command {
        case .pinClear:
            try store.setPINHash(nil)
            access.pinHash = nil
            reply(.success("ok PIN removed: library and settings are open to anyone at the console"))
        case .pinSet(let newPIN):
            let pin = try PINRules.validate(newPIN)
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
            preconditionFailure("not a PIN command: \(command)")
        }
    }
}
