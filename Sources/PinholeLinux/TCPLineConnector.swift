// LineConnector over TCP sockets: one reader thread per connection, woken through a pipe to close.

import PinholeCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Opens TCP connections (IPv4 or IPv6, names resolved with getaddrinfo) whose lines are
/// read on their own thread, so the event loop never blocks on the network.
public struct TCPLineConnector: LineConnector {
    /// How long a connection attempt may take before it counts as failed.
    public var connectTimeoutMs: Int32

    /// Creates a connector.
    public init(connectTimeoutMs: Int32 = 5000) { self.connectTimeoutMs = connectTimeoutMs }

    /// Starts a connection and its reader thread (see `LineConnector.open`).
    public func open(
        host: String, port: Int, greeting: [UInt8], maxLine: Int,
        onLine: @escaping @Sendable ([UInt8]) -> Void, onClosed: @escaping @Sendable (String) -> Void
    ) -> any LineConnection {
        let connection = TCPLineConnection(
            host: host, port: port, greeting: greeting, maxLine: max(1, maxLine),
            connectTimeoutMs: connectTimeoutMs, onLine: onLine, onClosed: onClosed)
        connection.start()
        return connection
    }
}

/// One connection and its reader thread.
final class TCPLineConnection: LineConnection, @unchecked Sendable {
    private let host: String
    private let port: Int
    private let greeting: [UInt8]
    private let maxLine: Int
    private let connectTimeoutMs: Int32
    private let onLine: @Sendable ([UInt8]) -> Void
    private let onClosed: @Sendable (String) -> Void
    private let state = Mutex<(closed: Bool, thread: pthread_t?)>((false, nil))
    private var wake: [Int32] = [-1, -1]

    init(
        host: String, port: Int, greeting: [UInt8], maxLine: Int, connectTimeoutMs: Int32,
        onLine: @escaping @Sendable ([UInt8]) -> Void, onClosed: @escaping @Sendable (String) -> Void
    ) {
        self.host = host
        self.port = port
        self.greeting = greeting
        self.maxLine = maxLine
        self.connectTimeoutMs = connectTimeoutMs
        self.onLine = onLine
        self.onClosed = onClosed
    }

    deinit {
        for fd in wake where fd >= 0 { Glibc.close(fd) }
    }

    func start() {
        guard pipe(&wake) == 0 else {
            onClosed("cannot create a pipe (\(String(cString: strerror(errno))))")
            return
        }
        for fd in wake { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let connection = Unmanaged<TCPLineConnection>.fromOpaque(raw!).takeRetainedValue()
                connection.run()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            onClosed("cannot start a reader thread (errno \(result))")
            return
        }
        state.withLock { $0.thread = thread }
    }

    func close() {
        let thread: pthread_t? = state.withLock { current in
            current.closed = true
            defer { current.thread = nil }
            return current.thread
        }
        guard let thread else { return }
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        if pthread_equal(thread, pthread_self()) == 0 {
            pthread_join(thread, nil)
        } else {
            pthread_detach(thread)
        }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    private func run() {
        var reason = "closed"
        let socket = connect(&reason)
        if socket >= 0 {
            reason = readLines(socket)
            Glibc.close(socket)
        }
        if !isClosed { onClosed(reason) }
    }

    /// Resolves and connects (non-blocking, bounded by the timeout, interruptible by close);
    /// returns the socket or -1 with `reason` set.
    private func connect(_ reason: inout String) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            reason = "cannot resolve \(host): \(String(cString: gai_strerror(status)))"
            return -1
        }
        defer { freeaddrinfo(list) }
        var next: UnsafeMutablePointer<addrinfo>? = first
        reason = "no address for \(host)"
        while let info = next, !isClosed {
            next = info.pointee.ai_next
            let fd = socket(
                info.pointee.ai_family,
                info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue)
                    | Int32(
                        SOCK_NONBLOCK.rawValue), info.pointee.ai_protocol)
            guard fd >= 0 else {
                reason = "socket: \(String(cString: strerror(errno)))"
                continue
            }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var fds = [
                    pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
                    pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0),
                ]
                var ready: Int32
                repeat { ready = poll(&fds, 2, connectTimeoutMs) } while ready < 0 && errno == EINTR
                if ready > 0, fds[1].revents == 0 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0, send(fd, greeting) { return fd }
                    reason =
                        "connection refused or reset (\(String(cString: strerror(error == 0 ? errno : error))))"
                } else {
                    reason = ready == 0 ? "no answer within \(connectTimeoutMs) ms" : "closed"
                }
            } else {
                reason = String(cString: strerror(errno))
            }
            Glibc.close(fd)
        }
        return -1
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                    _ = poll(&fds, 1, connectTimeoutMs)
                    continue
                }
                return false
            }
            sent += n
        }
        return true
    }

    /// Reads until the peer closes, an error, or `close()`; returns why it ended.
    private func readLines(_ fd: Int32) -> String {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 4096)
        var line: [UInt8] = []
        var skipping = false
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return "poll: \(String(cString: strerror(errno)))"
            }
            if fds[1].revents != 0 { return "closed" }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return "the server closed the connection" }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return "connection lost (\(String(cString: strerror(errno))))"
            }
            for byte in buffer[0..<n] {
                if byte == 0x0A {
                    if !skipping && !line.isEmpty {
                        if line.last == 0x0D { line.removeLast() }
                        if isClosed { return "closed" }
                        onLine(line)
                    }
                    line.removeAll(keepingCapacity: true)
                    skipping = false
                } else if !skipping {
                    line.append(byte)
                    if line.count > maxLine {
                        // Deliver what fits (the parser rejects it) and drop the rest of the line.
                        onLine(Array(line.prefix(maxLine + 1)))
                        line.removeAll(keepingCapacity: true)
                        skipping = true
                    }
                }
            }
        }
    }
}
