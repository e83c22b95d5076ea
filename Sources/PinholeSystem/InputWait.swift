// Waiting for input on descriptors with poll(2), the one EINTR policy applied.

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
    /// Blocks until at least one of `descriptors` is readable or fails, and returns each
    /// one's readiness in order. An interrupted wait (EINTR) is waited again.
    /// - Throws: the `Errno` of `poll(2)`.
    public static func waitForInput(_ descriptors: [FileDescriptor]) throws(Errno) -> [InputReadiness] {
        var fds = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        try retryingInterrupts {
            for index in fds.indices { fds[index].revents = 0 }
            return fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
        }
        return fds.map { InputReadiness(events: $0.revents) }
    }
}
