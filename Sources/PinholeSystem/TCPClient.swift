// TCP client sockets: resolve, connect within a deadline (abandoned on a wake-up), send everything.

import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a TCP connection could not be made or used.
public enum TCPFailure: Error, Equatable, CustomStringConvertible {
    /// `getaddrinfo` found no address (its own message).
    case unresolved(host: String, reason: String)
    /// The peer refused or reset the connection, or could not be reached.
    case refused(Errno)
    /// No answer within the time allowed.
    case timedOut(milliseconds: Int32)
    /// The wake-up descriptor became readable: the caller gave up.
    case cancelled
    /// Another system call failed (`socket`, `poll`, `send`).
    case system(operation: String, Errno)

    /// What went wrong, for logs and status lines.
    public var description: String {
        switch self {
        case .unresolved(let host, let reason): "cannot resolve \(host): \(reason)"
        case .refused(let code): "connection refused or reset (\(code))"
        case .timedOut(let milliseconds): "no answer within \(milliseconds) ms"
        case .cancelled: "closed"
        case .system(let operation, let code): "\(operation): \(code)"
        }
    }
}

/// Connecting TCP client sockets and writing to them.
public enum TCPClient {
    /// Connects to `host:port` (`getaddrinfo`: IPv4 or IPv6, each address in turn) with a
    /// non-blocking, close-on-exec socket, waiting at most `timeoutMs` per address and
    /// giving up as soon as `cancel` (a pipe's read end, say) becomes readable.
    ///
    /// The socket returned stays non-blocking and is the caller's to close; every socket of a
    /// failed attempt is closed here. After several failed addresses, the last one's reason.
    public static func connect(host: String, port: Int, timeoutMs: Int32, cancel: FileDescriptor? = nil)
        throws(TCPFailure) -> FileDescriptor
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unresolved(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var failure = TCPFailure.unresolved(host: host, reason: "no address")
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            do {
                return try connect(to: info.pointee, timeoutMs: timeoutMs, cancel: cancel)
            } catch .cancelled {
                throw .cancelled
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// One address: a new socket, `connect`, a wait for it to be writable; the socket is
    /// closed on every failure.
    private static func connect(to address: addrinfo, timeoutMs: Int32, cancel: FileDescriptor?)
        throws(TCPFailure) -> FileDescriptor
    {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let raw = socket(address.ai_family, address.ai_socktype | flags, address.ai_protocol)
        guard raw >= 0 else { throw .system(operation: "socket", currentErrno) }
        let fd = FileDescriptor(rawValue: raw)
        do {
            try connect(fd, to: address, timeoutMs: timeoutMs, cancel: cancel)
            return fd
        } catch {
            try? fd.close()  // never retried: the descriptor is gone either way
            throw error
        }
    }

    private static func connect(
        _ fd: FileDescriptor, to address: addrinfo, timeoutMs: Int32, cancel: FileDescriptor?
    )
        throws(TCPFailure)
    {
        // A non-blocking connect starts (EINPROGRESS) and is waited for below; an interrupted
        // one goes on in the background just the same (EINTR), so neither is repeated.
        if systemConnect(fd.rawValue, address.ai_addr, address.ai_addrlen) != 0 {
            let code = currentErrno
            guard code == .nowInProgress || code == .interrupted else { throw .refused(code) }
        }
        var requests = [(fd, Int16(POLLOUT))]
        if let cancel { requests.append((cancel, Int16(POLLIN))) }
        let ready: [Int16]
        do {
            ready = try FileDescriptor.poll(requests, timeoutMs: timeoutMs)
        } catch {
            throw .system(operation: "poll", error)
        }
        if ready.count > 1, ready[1] != 0 { throw .cancelled }
        guard ready[0] != 0 else { throw .timedOut(milliseconds: timeoutMs) }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
            throw .system(operation: "getsockopt", currentErrno)
        }
        guard error == 0 else { throw .refused(Errno(rawValue: error)) }
    }

    /// Sends all of `bytes` on a connected socket (`send` with MSG_NOSIGNAL: a closed peer is
    /// an EPIPE error, not a SIGPIPE), waiting at most `timeoutMs` for room whenever a
    /// non-blocking socket is full.
    public static func send(_ bytes: [UInt8], on fd: FileDescriptor, timeoutMs: Int32) throws(TCPFailure) {
        var sent = 0
        while sent < bytes.count {
            let count: Int
            do {
                count = try retryingInterrupts {
                    bytes[sent...].withUnsafeBytes {
                        systemSend(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                }
            } catch let code where code == .wouldBlock || code == .resourceTemporarilyUnavailable {
                let ready: [Int16]
                do {
                    ready = try FileDescriptor.poll([(fd, Int16(POLLOUT))], timeoutMs: timeoutMs)
                } catch {
                    throw .system(operation: "poll", error)
                }
                guard ready[0] != 0 else { throw .timedOut(milliseconds: timeoutMs) }
                continue
            } catch {
                throw .refused(error)
            }
            sent += count
        }
    }
}

/// `connect(2)` and `send(2)`, named apart from `TCPClient`'s own.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}
