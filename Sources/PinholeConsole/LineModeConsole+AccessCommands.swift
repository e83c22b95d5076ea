// Line-mode access commands: unlock with the PIN, lock again.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func accessCommand(_ command: ConsoleCommand, reply: @escaping (Result<String, Error>) -> Void) throws {
        guard case .unlock(let pin) = command else {
            access.lock()
            reply(.success(access.hasPIN ? "ok locked" : "ok no PIN is set: library and settings stay open"))
            return
        }
        guard let hash = access.pinHash else {
            reply(.success("ok no PIN is set: everything is open"))
            return
        }
        guard let hashing = pinHashing else {
            throw ConsoleError.unavailable("PIN checking is not available here")
        }
        let now = appliance.loop.now
        guard access.mayTry(at: now) else {
            throw ConsoleError.locked(
                "locked: too many wrong PINs, try again in \(access.lockoutRemaining(at: now)) s")
        }
        // The hash is slow on purpose: check it on the worker thread, not the loop.
        appliance.loop.offload(
            { hashing.verify(pin, hash) },
            then: { [weak self] correct in
                guard let self else { return }
                switch self.access.record(correct: correct, at: self.appliance.loop.now) {
                case .unlocked:
                    let minutes = Int(self.access.idleTimeout.seconds / 60)
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

/// The `status --json` answer: the appliance's status plus the console's access state.
struct StatusAnswer: Encodable {
    var status: ApplianceStatus
    var access: String

    private enum Key: String, CodingKey { case access }

    func encode(to encoder: Encoder) throws {
        try status.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(access, forKey: .access)
    }
}
