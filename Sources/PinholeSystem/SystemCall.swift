// The one place EINTR is retried, for the calls swift-system does not wrap; never for close.

import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a C call returning -1 with `errno` on failure, again while it fails with EINTR;
/// returns its result or throws its `Errno`. Not for `close(2)`: on Linux the descriptor is
/// gone even when close reports EINTR, and a retry could close another thread's new file.
@discardableResult
public func retryingInterrupts<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = Errno(rawValue: errno)
        if code != .interrupted { throw code }
    }
}

/// The calling thread's `errno` as an `Errno`.
public var currentErrno: Errno { Errno(rawValue: errno) }
