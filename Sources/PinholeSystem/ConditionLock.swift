// The one lock type: a mutex with a condition variable whose timed waits use the monotonic clock.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex plus condition variable whose timed waits use CLOCK_MONOTONIC.
///
/// `withLock` for mutual exclusion; `lock`, `wait`, `broadcast` and `unlock` for waiting
/// until another thread changes what the lock protects.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// Creates an unlocked lock.
    public init() {
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
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits (lock held) until signalled, or until CLOCK_MONOTONIC reads `deadline`
    /// nanoseconds (nil: no deadline). May return early (spurious wake-ups): recheck.
    public func wait(untilMonotonicNanoseconds deadline: Int64? = nil) {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var ts = timespec(
            tv_sec: Int(deadline / 1_000_000_000),
            tv_nsec: Int(deadline % 1_000_000_000))
        _ = pthread_cond_timedwait(condition, mutex, &ts)
    }

    /// Wakes every waiter. Call with the lock held.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Locks, for callers that pair with `wait`.
    public func lock() { pthread_mutex_lock(mutex) }
    /// Unlocks.
    public func unlock() { pthread_mutex_unlock(mutex) }
}
