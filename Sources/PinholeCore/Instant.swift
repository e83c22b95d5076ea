// A point on the appliance's monotonic timeline, in nanoseconds.

/// A point in monotonic time (CLOCK_MONOTONIC on hardware, virtual time in simulation).
///
/// Kernel GPIO edge timestamps and libcamera sensor timestamps are on this same
/// timeline, which is what lets the camera engine match a shutter edge to a frame.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary origin (boot, or the start of a simulation).
    public var nanoseconds: Int64

    /// Creates an instant from nanoseconds since the origin.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The origin of the timeline.
    public static let zero = Instant(nanoseconds: 0)

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The instant `duration` later.
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    /// The instant `duration` earlier.
    public static func - (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    /// A readable form, for messages and logs.
    public var description: String {
        let ms = Double(nanoseconds) / 1_000_000
        return "t+\(ms)ms"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }

    /// The duration in milliseconds as a floating-point number.
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// The duration in seconds as a floating-point number.
    public var seconds: Double { Double(nanoseconds) / 1_000_000_000 }
}
