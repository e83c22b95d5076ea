// Console I/O threads: a reader that posts input to the loop with backpressure, and a
// writer that never blocks the loop (a terminal that stops reading loses output, not time).

#if canImport(Glibc)
    import Glibc
#endif
import PinholeCore

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

/// Writes all of `bytes` unless the descriptor fails; returns whether it all went out.
@discardableResult
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += written
    }
    return true
}

/// A mutex and condition variable.
final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Waits (the mutex held by the caller through `locked`) until signalled.
    func wait() { pthread_cond_wait(condition, mutex) }
    func signal() { pthread_cond_broadcast(condition) }
}

/// Starts a detached thread running `body`.
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body))
    var thread = pthread_t()
    pthread_create(
        &thread, nil,
        { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box.toOpaque())
    pthread_detach(thread)
}

/// Sends bytes to a descriptor from its own thread. The loop only queues; if the terminal
/// stops reading (flow control, a hung pty), at most `limit` bytes wait and older output is
/// dropped — `takeOverflow()` then tells the console to redraw everything once it drains.
final class OutputPump: @unchecked Sendable {
    private let monitor = Monitor()
    private var queue: [UInt8] = []
    private var fd: Int32
    private var overflowed = false
    private var failed = false
    /// Most bytes kept waiting.
    let limit: Int

    init(fd: Int32, limit: Int = 64 * 1024) {
        self.fd = fd
        self.limit = limit
        startThread { [self] in run() }
    }

    /// Queues bytes (never blocks).
    func send(_ bytes: [UInt8]) {
        monitor.locked {
            guard !failed else { return }
            queue += bytes
            if queue.count > limit {
                queue.removeFirst(queue.count - limit)
                overflowed = true
            }
            monitor.signal()
        }
    }

    /// Points the pump at a new descriptor (after a reconnect) and drops what was waiting.
    func retarget(_ fd: Int32) {
        monitor.locked {
            self.fd = fd
            queue.removeAll()
            failed = false
            overflowed = false
            monitor.signal()
        }
    }

    /// Bytes queued and not yet written.
    var pendingBytes: Int { monitor.locked { queue.count } }

    /// Whether output was dropped since the last call (or the descriptor failed).
    func takeOverflow() -> Bool {
        monitor.locked {
            defer { overflowed = false }
            return overflowed
        }
    }

    private func run() {
        while true {
            let (target, bytes): (Int32, [UInt8]) = monitor.locked {
                while queue.isEmpty { monitor.wait() }
                defer { queue.removeAll(keepingCapacity: true) }
                return (fd, queue)
            }
            if !writeAll(target, bytes) {
                monitor.locked {
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
    private let monitor = Monitor()
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
        startThread { [self] in run() }
    }

    /// Allows the next read (call on the loop once the last chunk has been dealt with).
    func resume() {
        monitor.locked {
            ready = true
            monitor.signal()
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            monitor.locked {
                while !ready { monitor.wait() }
                ready = false
            }
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let polled = poll(&pollfd, 1, -1)
            if polled < 0 {
                if errno == EINTR {
                    resume()
                    continue
                }
                return finish(errno)
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN {
                    resume()
                    continue
                }
                return finish(code)
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
