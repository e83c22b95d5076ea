// libcamera's CLOCK_BOOTTIME frame timestamps on the appliance's CLOCK_MONOTONIC timeline.

#if canImport(Glibc)
    import Glibc
#endif
import PinholeCore

/// Converts between the kernel clocks the camera and the buttons use. libcamera's
/// `SensorTimestamp` is CLOCK_BOOTTIME; gpiod edge events and the event loop are
/// CLOCK_MONOTONIC. The two differ by the time spent suspended, read now.
enum BootClock {
    /// CLOCK_BOOTTIME − CLOCK_MONOTONIC now, in nanoseconds (0 or more).
    static func bootMinusMonotonic() -> Int64 {
        var boot = timespec()
        var mono = timespec()
        clock_gettime(CLOCK_MONOTONIC, &mono)
        clock_gettime(CLOCK_BOOTTIME, &boot)
        let difference =
            (Int64(boot.tv_sec) - Int64(mono.tv_sec)) * 1_000_000_000
            + (Int64(boot.tv_nsec) - Int64(mono.tv_nsec))
        // Read in that order, BOOTTIME is a few ns later: round such noise away below 1 µs.
        return difference < 1000 ? 0 : difference
    }

    /// A CLOCK_BOOTTIME instant on the CLOCK_MONOTONIC timeline, given the clocks' offset.
    static func monotonic(fromBootTime nanoseconds: Int64, offset: Int64) -> Instant {
        Instant(nanoseconds: nanoseconds &- max(0, offset))
    }

    /// A CLOCK_REALTIME instant as a wall time with the local UTC offset.
    static func wallTime(realtimeNanoseconds: Int64) -> WallTime {
        var seconds = time_t(realtimeNanoseconds / 1_000_000_000)
        var broken = tm()
        localtime_r(&seconds, &broken)
        return WallTime(
            secondsSince1970: realtimeNanoseconds / 1_000_000_000,
            nanoseconds: Int32(realtimeNanoseconds % 1_000_000_000), utcOffsetSeconds: Int32(broken.tm_gmtoff)
        )
    }
}
