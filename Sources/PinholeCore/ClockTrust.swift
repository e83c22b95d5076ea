// Whether the system clock could be trusted when a photo was taken, and the clock's controls.

/// How far a photo's date can be trusted.
public enum ClockTrust: String, Sendable, Hashable, Codable, CaseIterable {
    /// The kernel reported the clock synchronized (NTP, chrony, systemd-timesyncd).
    case synchronized
    /// A GPS time fix agreed with the clock (or set it).
    case gps
    /// The kernel reported the clock unsynchronized and no GPS time confirmed it: the date
    /// may be wrong (a board without RTC or network starts from an old date).
    case unsynchronized
    /// Nothing could tell (no kernel status, imported photos).
    case unknown

    /// Whether the date is believed right.
    public var isTrusted: Bool { self == .synchronized || self == .gps }
}

/// The system clock's synchronisation status and control, behind a protocol so that tests
/// inject any state.
public protocol SystemClockControl: AnyObject, Sendable {
    /// Whether the kernel considers the clock synchronized (adjtimex without STA_UNSYNC);
    /// nil when it cannot tell.
    func kernelSynchronized() -> Bool?
    /// Sets CLOCK_REALTIME. Throws a message naming the missing privilege when not allowed.
    func setClock(to time: WallTime) throws
    /// Whether a local time zone is configured (TZ or /etc/localtime), so that the UTC
    /// offset of a photo's date means something.
    var timeZoneKnown: Bool { get }
}
