// Console access levels: capture and status always; library and settings behind a PIN,
// with lock-out after repeated failures and re-locking after an idle timeout.

import PinholeCore

/// How PINs are hashed and checked (crypt(3) yescrypt on the appliance; see
/// `CryptPINHasher`). Both may be slow: the console runs them off the loop.
public struct PINHashing: Sendable {
    /// A new salted hash of a PIN.
    public var hash: @Sendable (String) throws -> String
    /// Whether a PIN matches a stored hash.
    public var verify: @Sendable (_ pin: String, _ hash: String) -> Bool

    /// Creates hashing from two functions.
    public init(
        hash: @escaping @Sendable (String) throws -> String,
        verify: @escaping @Sendable (String, String) -> Bool
    ) {
        self.hash = hash
        self.verify = verify
    }
}

/// The console's access state. A value type over instants from the loop's clock: no timers
/// of its own; whoever asks passes the time.
public struct AccessControl: Sendable {
    /// The outcome of an unlock attempt.
    public enum UnlockOutcome: Equatable, Sendable {
        /// Unlocked.
        case unlocked
        /// Wrong PIN; `remaining` more tries before a lock-out.
        case wrong(remaining: Int)
        /// Wrong PIN, and now locked out for `seconds`.
        case lockedOut(seconds: Int)
    }

    /// The stored PIN hash; nil means no PIN: everything is open.
    public var pinHash: String?
    /// Inactivity after which library and settings lock again.
    public var idleTimeout: Duration
    /// Wrong PINs in a row before a lock-out.
    public var maximumFailures: Int
    /// The first lock-out; each further one doubles, up to an hour.
    public var lockout: Duration

    private var lastActivity: Instant?
    private var failures = 0
    private var lockouts = 0
    private var lockedUntil: Instant?

    /// Access with an optional PIN hash.
    public init(
        pinHash: String?, idleTimeout: Duration = .seconds(300), maximumFailures: Int = 5,
        lockout: Duration = .seconds(60)
    ) {
        self.pinHash = pinHash
        self.idleTimeout = idleTimeout
        self.maximumFailures = max(1, maximumFailures)
        self.lockout = lockout
    }

    /// Whether a PIN is configured.
    public var hasPIN: Bool { pinHash != nil }

    /// Whether PIN-protected commands may run at `now`.
    public func isUnlocked(at now: Instant) -> Bool {
        guard pinHash != nil else { return true }
        guard let lastActivity else { return false }
        return now - lastActivity < idleTimeout
    }

    /// Seconds of lock-out left at `now` (0: none).
    public func lockoutRemaining(at now: Instant) -> Int {
        guard let lockedUntil, lockedUntil > now else { return 0 }
        return Int(((lockedUntil - now).seconds).rounded(.up))
    }

    /// Activity (a key, a command) keeps an unlocked console unlocked.
    public mutating func touch(at now: Instant) {
        if pinHash != nil, isUnlocked(at: now) { lastActivity = now }
    }

    /// Whether an unlock attempt may be checked now (not locked out).
    public func mayTry(at now: Instant) -> Bool { lockoutRemaining(at: now) == 0 }

    /// Records the result of checking a PIN at `now`. `unlocking: false` is for a PIN
    /// checked elsewhere (a web login): it counts towards the same lock-out, but a correct
    /// one does not unlock this console.
    public mutating func record(correct: Bool, at now: Instant, unlocking: Bool = true) -> UnlockOutcome {
        if correct {
            failures = 0
            lockouts = 0
            lockedUntil = nil
            if unlocking { lastActivity = now }
            return .unlocked
        }
        if unlocking { lastActivity = nil }
        failures += 1
        guard failures >= maximumFailures else { return .wrong(remaining: maximumFailures - failures) }
        failures = 0
        let factor = Int64(1) << Int64(min(lockouts, 12))
        let length = Duration.nanoseconds(min(lockout.nanoseconds * factor, 3_600_000_000_000))
        lockouts += 1
        lockedUntil = now + length
        return .lockedOut(seconds: Int(length.seconds.rounded(.up)))
    }

    /// Locks now.
    public mutating func lock() { lastActivity = nil }

    /// The state as the menu shows it.
    public func summary(at now: Instant) -> AccessSummary {
        AccessSummary(
            pinConfigured: pinHash != nil, unlocked: isUnlocked(at: now),
            lockedOutSeconds: lockoutRemaining(at: now))
    }

    /// A phrase for `status`.
    public func describe(at now: Instant) -> String {
        guard pinHash != nil else { return "open (no PIN set: library and settings are not protected)" }
        let remaining = lockoutRemaining(at: now)
        if remaining > 0 { return "locked out for \(remaining) s after wrong PINs" }
        return isUnlocked(at: now) ? "unlocked" : "locked (unlock PIN for library and settings)"
    }
}

/// What a PIN may be.
public enum PINRules {
    /// Checks a new PIN: 4 to 32 characters, no spaces or control characters.
    public static func validate(_ pin: String) throws -> String {
        guard (4...32).contains(pin.count) else {
            throw ConsoleError.usage("a PIN has 4 to 32 characters (this one has \(pin.count))")
        }
        guard pin.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            throw ConsoleError.usage("a PIN cannot contain spaces or control characters")
        }
        return pin
    }
}
