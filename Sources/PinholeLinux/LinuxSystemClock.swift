// SystemClockControl on Linux: adjtimex's STA_UNSYNC, clock_settime, and the configured time zone.

import CTimex
import PinholeCore
import PinholeSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's system clock.
public final class LinuxSystemClock: SystemClockControl {
    /// Creates the clock control.
    public init() {}

    /// adjtimex(2) with no modes: synchronized unless STA_UNSYNC is set (or it returns
    /// TIME_ERROR). Where a seccomp filter forbids adjtimex (systemd's ProtectClock=yes),
    /// systemd-timesyncd's flag file /run/systemd/timesync/synchronized says synchronized;
    /// otherwise nil: it cannot tell.
    public func kernelSynchronized() -> Bool? {
        var status = timex()
        let state = adjtimex(&status)
        guard state >= 0 else {
            return FileSystem.exists("/run/systemd/timesync/synchronized") ? true : nil
        }
        return state != TIME_ERROR && status.status & STA_UNSYNC == 0
    }

    /// clock_settime(CLOCK_REALTIME); needs CAP_SYS_TIME (see board/README.md).
    public func setClock(to time: WallTime) throws {
        var spec = timespec(tv_sec: Int(time.secondsSince1970), tv_nsec: Int(time.nanoseconds))
        do {
            try retryingInterrupts { clock_settime(CLOCK_REALTIME, &spec) }
        } catch {
            throw ClockSetError(
                reason: error == .notPermitted
                    ? "not permitted: the service needs CAP_SYS_TIME and ProtectClock=no (board/README.md)"
                    : error.description)
        }
    }

    /// True when TZ is set or /etc/localtime exists.
    public var timeZoneKnown: Bool {
        if let tz = getenv("TZ"), tz.pointee != 0 { return true }
        return FileSystem.exists("/etc/localtime")
    }
}

/// The clock could not be set.
public struct ClockSetError: Error, CustomStringConvertible {
    /// Why.
    public var reason: String
    /// The reason, for logs.
    public var description: String { "cannot set the clock: \(reason)" }
}
