// LineConnector over TCP sockets: one reader thread per connection, woken through a pipe to close.

import PinholeCore
import PinholeSystem
import SystemPackage

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
    private let lock = ConditionLock()
    /// Guarded by `lock`.
    private var closed = false
    /// Guarded by `lock`.
    private var thread: SystemThread?
    /// Wakes the reader from its wait (connect or read) when the connection is closed. Set
    /// by `start` before the thread starts; closed by `close()` once the reader has ended
    /// (or by deinit).
    private var wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?

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
        try? wake?.readEnd.close()
        try? wake?.writeEnd.close()
    }

    func start() {
        let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            wake = try FileDescriptor.pipe(options: .closeOnExec)
        } catch {
            onClosed("cannot create a pipe (\(error))")
            return
        }
        self.wake = wake
        do {
            let thread = try SystemThread.start { [self] in run(wake: wake.readEnd) }
            lock.withLock { self.thread = thread }
        } catch {
            onClosed("cannot start a reader thread (\(error))")
        }
    }

    func close() {
        let thread: SystemThread? = lock.withLock {
            closed = true
            defer { self.thread = nil }
            return self.thread
        }
        guard let thread, let wake else { return }
        // A full pipe already wakes the reader; nothing else can fail here.
        _ = try? wake.writeEnd.writeAll([1])
        if thread.isCurrent {
            // Closed from a callback: the reader ends when it returns, and the pipe goes with
            // this object (the thread holds it until then).
            thread.detach()
        } else {
            thread.join()
            self.wake = nil
            try? wake.readEnd.close()
            try? wake.writeEnd.close()
        }
    }

    private var isClosed: Bool { lock.withLock { closed } }

    private func run(wake: FileDescriptor) {
        let reason: String
        do {
            let socket = try TCPClient.connect(
                host: host, port: port, timeoutMs: connectTimeoutMs, cancel: wake)
            reason = session(socket, wake: wake)
        } catch {
            reason = "\(error)"
        }
        if !isClosed { onClosed(reason) }
    }

    /// Greets, then reads lines until the peer closes, an error, or `close()`; closes the
    /// socket and returns why it ended.
    private func session(_ socket: FileDescriptor, wake: FileDescriptor) -> String {
        defer { try? socket.close() }  // never retried: the descriptor is gone either way
        do {
            try TCPClient.send(greeting, on: socket, timeoutMs: connectTimeoutMs)
        } catch {
            return "\(error)"
        }
        return readLines(socket, wake: wake)
    }

    private func readLines(_ socket: FileDescriptor, wake: FileDescriptor) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var line: [UInt8] = []
        var skipping = false
        while true {
            let ready: [InputReadiness]
            do {
                ready = try FileDescriptor.waitForInput([socket, wake])
            } catch {
                return "poll: \(error)"
            }
            if ready[1].any { return "closed" }
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try socket.read(into: $0) }
            } catch let code as Errno where code == .wouldBlock {
                continue
            } catch {
                return "connection lost (\(error))"
            }
            if count == 0 { return "the server closed the connection" }
            for byte in buffer[0..<count] {
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
