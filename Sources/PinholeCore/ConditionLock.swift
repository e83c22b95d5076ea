// A mutex with a condition variable on the monotonic clock (pthreads), for the event loop.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex plus condition variable whose timed waits use CLOCK_MONOTONIC.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if os(Linux)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits (lock held) until signalled or until `deadline` on the monotonic clock.
    func wait(until deadline: Instant?) {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var ts = timespec(
            tv_sec: Int(deadline.nanoseconds / 1_000_000_000),
            tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
        _ = pthread_cond_timedwait(condition, mutex, &ts)
    }

    /// Wakes every waiter. Call with the lock held.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Locks, for callers that pair with `wait`.
    func lock() { pthread_mutex_lock(mutex) }
    /// Unlocks.
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// Reads CLOCK_MONOTONIC.
public func monotonicNow() -> Instant {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Instant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
}

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
