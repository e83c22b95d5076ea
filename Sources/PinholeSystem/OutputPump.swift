// Sends bytes to a descriptor from a thread of its own, so that a terminal that stops
// reading costs output, never the caller's time.

#if canImport(Glibc)
    import Glibc
#endif
import SystemPackage

/// Sends bytes to a descriptor from its own thread. Callers only queue; if the terminal
/// stops reading (flow control, a hung pty), at most `limit` bytes wait and older output is
/// dropped — `takeOverflow()` then says so, and the console redraws everything once it
/// drains. `drain(withinSeconds:)` waits for what is queued to be written (before the
/// terminal is handed back at exit, so the last screen's bytes are not lost).
public final class OutputPump: @unchecked Sendable {
    private let monitor = ConditionLock()
    private var queue: [UInt8] = []
    /// Bytes taken off the queue and still being written.
    private var writing = 0
    private var fd: Int32
    private var overflowed = false
    private var failed = false
    /// Most bytes kept waiting.
    public let limit: Int

    /// A pump writing to `fd` (not owned: the caller closes it, after `retarget(-1)`).
    public init(fd: Int32, limit: Int = 64 * 1024) {
        self.fd = fd
        self.limit = limit
        SystemThread.detach { [self] in run() }
    }

    /// Queues bytes (never blocks).
    public func send(_ bytes: [UInt8]) {
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
    public func retarget(_ fd: Int32) {
        monitor.withLock {
            self.fd = fd
            queue.removeAll()
            failed = false
            overflowed = false
            monitor.broadcast()
        }
    }

    /// Bytes queued and not yet written.
    public var pendingBytes: Int { monitor.withLock { queue.count + writing } }

    /// Whether output was dropped since the last call (or the descriptor failed).
    public func takeOverflow() -> Bool {
        monitor.withLock {
            defer { overflowed = false }
            return overflowed
        }
    }

    /// Waits until everything queued has been written, or the descriptor failed, or
    /// `seconds` have passed (a terminal that never reads must not hold up an exit).
    /// Returns whether everything queued went out.
    @discardableResult
    public func drain(withinSeconds seconds: Double) -> Bool {
        let deadline = monotonicNanoseconds() + Int64(max(0, min(seconds, 3600)) * 1e9)
        monitor.lock()
        defer { monitor.unlock() }
        while !(queue.isEmpty && writing == 0) && !failed {
            if monotonicNanoseconds() >= deadline { return false }
            monitor.wait(untilMonotonicNanoseconds: deadline)
        }
        return !failed
    }

    private func run() {
        while true {
            let (target, bytes): (Int32, [UInt8]) = monitor.withLock {
                while queue.isEmpty { monitor.wait() }
                defer {
                    writing = queue.count
                    queue.removeAll(keepingCapacity: true)
                }
                return (fd, queue)
            }
            let written = (try? FileDescriptor(rawValue: target).writeAll(bytes)) != nil
            monitor.withLock {
                writing = 0
                if !written && fd == target {  // the device is gone: drop output until retargeted
                    failed = true
                    queue.removeAll()
                }
                monitor.broadcast()
            }
        }
    }
}
