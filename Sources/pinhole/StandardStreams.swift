// Console I/O threads: a reader that posts input to the loop with backpressure, and a
// writer that never blocks the loop (a terminal that stops reading loses output, not time).

#if canImport(Glibc)
    import Glibc
#endif
import PinholeCore
import PinholeSystem
import SystemPackage

/// Writes whole lines to a file descriptor, retrying on EINTR and partial writes (blocking:
/// for stderr and for line mode on a pipe, where a slow reader should slow the script).
struct LineWriter: Sendable {
    let fd: Int32

    static let standardOutput = LineWriter(fd: 1)
    static let standardError = LineWriter(fd: 2)

    func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(10)
        writeAll(fd, bytes)
    }
}

/// Writes all of `bytes` unless the descriptor fails (swift-system's `writeAll`: partial
/// writes continued, EINTR retried); returns whether it all went out.
@discardableResult
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    (try? FileDescriptor(rawValue: fd).writeAll(bytes)) != nil
}

/// Sends bytes to a descriptor from its own thread. The loop only queues; if the terminal
/// stops reading (flow control, a hung pty), at most `limit` bytes wait and older output is
/// dropped — `takeOverflow()` then tells the console to redraw everything once it drains.
final class OutputPump: @unchecked Sendable {
    private let monitor = ConditionLock()
    private var queue: [UInt8] = []
    private var fd: Int32
    private var overflowed = false
    private var failed = false
    /// Most bytes kept waiting.
    let limit: Int

    init(fd: Int32, limit: Int = 64 * 1024) {
        self.fd = fd
        self.limit = limit
        SystemThread.detach { [self] in run() }
    }

    /// Queues bytes (never blocks).
    func send(_ bytes: [UInt8]) {
        monitor.withLock {
            guard !failed else { return }
            queue += bytes
            if queue.count > limit {
                queue.removeFirst(queue.count - limit)
                overflowed = true
            }
            monitor.broadcast()
        }
    }

    /// Points the pump at a new descriptor (after a reconnect) and drops what was waiting.
    func retarget(_ fd: Int32) {
        monitor.withLock {
            self.fd = fd
            queue.removeAll()
            failed = false
            overflowed = false
            monitor.broadcast()
        }
    }

    /// Bytes queued and not yet written.
    var pendingBytes: Int { monitor.withLock { queue.count } }

    /// Whether output was dropped since the last call (or the descriptor failed).
    func takeOverflow() -> Bool {
        monitor.withLock {
            defer { overflowed = false }
            return overflowed
        }
    }

    private func run() {
        while true {
            let (target, bytes): (Int32, [UInt8]) = monitor.withLock {
                while queue.isEmpty { monitor.wait() }
                defer { queue.removeAll(keepingCapacity: true) }
                return (fd, queue)
            }
            if !writeAll(target, bytes) {
                monitor.withLock {
                    if fd == target {  // the device is gone: drop output until retargeted
                        failed = true
                        queue.removeAll()
                    }
                }
            }
        }
    }
}

/// Reads a descriptor on its own thread and posts the bytes to the loop, one chunk at a
/// time: the next read waits until the loop calls `resume()`, so a flood of input waits in
/// the kernel (and the serial line's flow control) instead of in memory.
final class InputPump: @unchecked Sendable {
    private let monitor = ConditionLock()
    private var ready = true
    private let fd: Int32
    private let loop: EventLoop
    private let onBytes: @Sendable ([UInt8]) -> Void
    private let onEnd: @Sendable (_ error: Int32) -> Void

    /// `onBytes` and `onEnd` run on the loop; `onEnd` gets errno (0 for end of file).
    init(
        fd: Int32, loop: EventLoop, onBytes: @escaping @Sendable ([UInt8]) -> Void,
        onEnd: @escaping @Sendable (Int32) -> Void
    ) {
        self.fd = fd
        self.loop = loop
        self.onBytes = onBytes
        self.onEnd = onEnd
    }

    func start() {
        SystemThread.detach { [self] in run() }
    }

    /// Allows the next read (call on the loop once the last chunk has been dealt with).
    func resume() {
        monitor.withLock {
            ready = true
            monitor.broadcast()
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            monitor.withLock {
                while !ready { monitor.wait() }
                ready = false
            }
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let count: Int
            do {
                try retryingInterrupts { poll(&pollfd, 1, -1) }
                count = try retryingInterrupts {
                    buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                }
            } catch let code where code == .resourceTemporarilyUnavailable {
                resume()
                continue
            } catch {
                return finish(error.rawValue)
            }
            if count == 0 { return finish(0) }
            let bytes = Array(buffer[0..<count])
            let onBytes = self.onBytes
            loop.post { onBytes(bytes) }
        }
    }

    private func finish(_ code: Int32) {
        let onEnd = self.onEnd
        loop.post { onEnd(code) }
    }
}
