// Reads the system's monotonic and wall clocks (the real-time loop's time sources).

import PinholeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads CLOCK_MONOTONIC.
public func monotonicNow() -> Instant { Instant(nanoseconds: monotonicNanoseconds()) }

/// Reads CLOCK_REALTIME together with the local UTC offset.
public func systemWallNow() -> WallTime {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    var seconds = time_t(ts.tv_sec)
    var broken = tm()
    localtime_r(&seconds, &broken)
    return WallTime(
        secondsSince1970: Int64(ts.tv_sec), nanoseconds: Int32(ts.tv_nsec),
        utcOffsetSeconds: Int32(broken.tm_gmtoff))
}
