// Waiting on descriptors with poll(2), with a deadline kept across EINTR (the one EINTR policy).

import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `poll(2)` reported for one descriptor.
public struct InputReadiness: Sendable, Equatable {
    /// The raw `revents` bits.
    public var events: Int16

    /// Input is waiting (`POLLIN`).
    public var readable: Bool { events & Int16(POLLIN) != 0 }
    /// Something other than input: an error, a hang-up, an invalid descriptor.
    public var failed: Bool { events & ~Int16(POLLIN) != 0 }
    /// Anything at all.
    public var any: Bool { events != 0 }
}

extension FileDescriptor {
    /// Blocks until at least one of `descriptors` is readable or fails, or `timeoutMs` has
    /// passed (nil: no limit), and returns each one's readiness in order (none at all after a
    /// timeout). An interrupted wait (EINTR) is waited again for what is left of the time.
    /// - Throws: the `Errno` of `poll(2)`.
    public static func waitForInput(_ descriptors: [FileDescriptor], timeoutMs: Int32? = nil) throws(Errno)
        -> [InputReadiness]
    {
        try poll(descriptors.map { ($0, Int16(POLLIN)) }, timeoutMs: timeoutMs).map(InputReadiness.init)
    }

    /// `poll(2)` on `requests` (descriptor and the events wanted) for at most `timeoutMs`
    /// (nil: no limit), EINTR waited again until the same deadline; the `revents` of each.
    static func poll(_ requests: [(FileDescriptor, Int16)], timeoutMs: Int32?) throws(Errno) -> [Int16] {
        var fds = requests.map { pollfd(fd: $0.0.rawValue, events: $0.1, revents: 0) }
        let deadline = timeoutMs.map { monotonicMilliseconds() + Int64(max(0, $0)) }
        try retryingInterrupts {
            for index in fds.indices { fds[index].revents = 0 }
            let wait = deadline.map { Int32(clamping: max(0, $0 - monotonicMilliseconds())) } ?? -1
            return fds.withUnsafeMutableBufferPointer { systemPoll($0.baseAddress, nfds_t($0.count), wait) }
        }
        return fds.map(\.revents)
    }
}

/// CLOCK_MONOTONIC in milliseconds.
private func monotonicMilliseconds() -> Int64 { monotonicNanoseconds() / 1_000_000 }

/// `poll(2)`, named apart from `FileDescriptor.poll`.
private func systemPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32 {
    poll(fds, count, timeout)
}
