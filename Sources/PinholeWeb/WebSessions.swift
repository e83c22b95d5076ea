// Logged-in browser sessions: random tokens with an expiry, each with its CSRF token.

import PinholeCore
import Synchronization

/// One logged-in browser.
public struct WebSession: Sendable, Hashable {
    /// The cookie's value (256 random bits, hex).
    public var token: String
    /// The token every state-changing request must carry (form field or header).
    public var csrf: String
    /// When it stops being valid.
    public var expires: Instant
    /// The PIN generation it was opened under: a PIN change ends it.
    public var pinGeneration: Int = 0
}

/// The server's sessions, in memory only (a restart logs everyone out). Bounded: the
/// oldest session goes when a new one would exceed `capacity`.
public final class WebSessions: Sendable {
    private let sessions = Mutex<[String: WebSession]>([:])
    /// How long a login lasts.
    public let lifetime: Duration
    /// Sessions kept at most.
    public let capacity: Int
    private let now: @Sendable () -> Instant
    private let pinGeneration: @Sendable () -> Int

    /// Sessions lasting `lifetime`, on the clock `now` (the appliance's, or a test's); a
    /// session ends when `pinGeneration` (the PIN's changes so far) moves past its own.
    public init(
        lifetime: Duration, capacity: Int = 64, now: @escaping @Sendable () -> Instant,
        pinGeneration: @escaping @Sendable () -> Int = { 0 }
    ) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
        self.now = now
        self.pinGeneration = pinGeneration
    }

    /// Starts a session.
    public func create() -> WebSession {
        let session = WebSession(
            token: Self.randomToken(), csrf: Self.randomToken(), expires: now() + lifetime,
            pinGeneration: pinGeneration())
        sessions.withLock { all in
            let time = now()
            all = all.filter { $0.value.expires > time }
            while all.count >= capacity, let oldest = all.min(by: { $0.value.expires < $1.value.expires }) {
                all.removeValue(forKey: oldest.key)
            }
            all[session.token] = session
        }
        return session
    }

    /// The live session for a cookie value (nil: unknown, expired, or opened before the PIN
    /// last changed).
    public func session(token: String) -> WebSession? {
        guard token.utf8.count == 64 else { return nil }
        let time = now()
        let generation = pinGeneration()
        return sessions.withLock { all in
            guard let session = all[token] else { return nil }
            guard session.expires > time, session.pinGeneration == generation else {
                all.removeValue(forKey: token)
                return nil
            }
            return session
        }
    }

    /// Ends a session (logout).
    public func end(token: String) {
        _ = sessions.withLock { $0.removeValue(forKey: token) }
    }

    /// Ends every session (the PIN changed).
    public func endAll() { sessions.withLock { $0.removeAll() } }

    /// Seconds left of a session (for the cookie's Max-Age).
    public func secondsLeft(_ session: WebSession) -> Int {
        max(0, Int((session.expires - now()).seconds))
    }

    /// 32 random bytes as 64 hex digits (the system's random source).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for _ in 0..<4 {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
