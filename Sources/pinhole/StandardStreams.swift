// Console I/O: a line writer for stderr and pipes, and a reader thread that posts input to
// the loop with backpressure (the writer that never blocks the loop is PinholeSystem's OutputPump).

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

/// Reads a descriptor on its own thread, each read stamped with the time it returned, and
/// hands the loop one chunk each time the loop asks (`resume()`). The thread reads ahead of
/// the loop up to `limit` bytes, so a chunk's stamp is when its bytes came off the line, not
/// when a busy loop got round to them (the console's noise gate cuts bursts by these times);
/// beyond the limit a flood waits in the kernel (and the serial line's flow control)
/// instead of in memory.
final class InputPump: @unchecked Sendable {
    private let monitor = ConditionLock()
    /// Read and not yet handed over (guarded by `monitor`), with their byte count.
    private var chunks: [(bytes: [UInt8], arrival: Instant?)] = []
    private var queuedBytes = 0
    /// The loop asked for the next chunk and has not been handed one yet.
    private var wanted = true
    /// A hand-over is posted to the loop and has not run yet.
    private var handOverPosted = false
    /// Why reading stopped (nil: still reading; 0: end of file), handed over after the chunks.
    private var end: Errno??
    private let fd: FileDescriptor
    private let loop: EventLoop
    private let stamp: (@Sendable () -> Instant)?
    private let onBytes: @Sendable ([UInt8], Instant?) -> Void
    private let onEnd: @Sendable (_ error: Errno?) -> Void
    /// Most bytes read ahead of the loop.
    let limit: Int

    /// `onBytes` (each chunk with the time it was read: `stamp()`, nil without a stamp) and
    /// `onEnd` (nil at end of file, else why reading failed) run on the loop.
    init(
        fd: Int32, loop: EventLoop, stamp: (@Sendable () -> Instant)?, limit: Int = 16 * 1024,
        onBytes: @escaping @Sendable ([UInt8], Instant?) -> Void, onEnd: @escaping @Sendable (Errno?) -> Void
    ) {
        self.fd = FileDescriptor(rawValue: fd)
        self.loop = loop
        self.stamp = stamp
        self.limit = limit
        self.onBytes = onBytes
        self.onEnd = onEnd
    }

    func start() {
        SystemThread.detach { [self] in run() }
    }

    /// Asks for the next chunk (call on the loop once the last one has been dealt with).
    func resume() {
        monitor.withLock {
            wanted = true
            handOverIfWanted()
        }
    }

    /// Posts a hand-over when the loop wants one and there is something to give. Lock held.
    private func handOverIfWanted() {
        guard wanted, !handOverPosted, !chunks.isEmpty || end != nil else { return }
        wanted = false
        handOverPosted = true
        loop.post { [self] in handOver() }
    }

    /// On the loop: the oldest chunk, or once all are handed over, the end.
    private func handOver() {
        let next: (bytes: [UInt8], arrival: Instant?)?
        let ended: Errno??
        (next, ended) = monitor.withLock {
            handOverPosted = false
            guard !chunks.isEmpty else { return (nil, end) }
            let chunk = chunks.removeFirst()
            queuedBytes -= chunk.bytes.count
            monitor.broadcast()
            return (chunk, nil)
        }
        if let next {
            onBytes(next.bytes, next.arrival)
        } else if let ended {
            onEnd(ended)
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            monitor.withLock {
                while queuedBytes >= limit { monitor.wait() }
            }
            let count: Int
            let arrival: Instant?
            do {
                _ = try FileDescriptor.waitForInput([fd])
                arrival = stamp?()
                count = try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
            } catch let code as Errno where code == .resourceTemporarilyUnavailable {
                continue
            } catch {
                return finish(error as? Errno ?? .ioError)
            }
            if count == 0 { return finish(nil) }
            monitor.withLock {
                chunks.append((Array(buffer[0..<count]), arrival))
                queuedBytes += count
                handOverIfWanted()
            }
        }
    }

    private func finish(_ code: Errno?) {
        monitor.withLock {
            end = .some(code)
            handOverIfWanted()
        }
    }
}
