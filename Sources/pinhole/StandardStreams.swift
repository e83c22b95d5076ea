// Unbuffered writes to stdout/stderr and a line reader thread for stdin.

#if canImport(Glibc)
import Glibc
#endif
import PinholeCore

/// Writes whole lines to a file descriptor, retrying on EINTR and partial writes.
struct LineWriter: Sendable {
    let fd: Int32

    static let standardOutput = LineWriter(fd: 1)
    static let standardError = LineWriter(fd: 2)

    func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(10)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

/// Reads lines from a file descriptor on its own thread and posts them to the loop.
final class LineReaderThread: @unchecked Sendable {
    private let fd: Int32
    private let loop: EventLoop
    private let onLine: @Sendable (String) -> Void
    private let onEnd: @Sendable () -> Void
    /// Longest line accepted; longer input is cut into pieces of this size.
    static let maximumLine = 4096

    init(fd: Int32, loop: EventLoop, onLine: @escaping @Sendable (String) -> Void, onEnd: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.loop = loop
        self.onLine = onLine
        self.onEnd = onEnd
    }

    func start() {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let reader = Unmanaged<LineReaderThread>.fromOpaque(raw!).takeRetainedValue()
            reader.run()
            return nil
        }, box.toOpaque())
        pthread_detach(thread)
    }

    private func run() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            for byte in buffer[0..<count] {
                if byte == 10 || byte == 13 {
                    if byte == 10 || !pending.isEmpty { emit(pending) }
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(byte)
                    if pending.count >= Self.maximumLine {
                        emit(pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        if !pending.isEmpty { emit(pending) }
        let onEnd = self.onEnd
        loop.post { onEnd() }
    }

    private func emit(_ bytes: [UInt8]) {
        let line = String(decoding: bytes, as: UTF8.self)
        let onLine = self.onLine
        loop.post { onLine(line) }
    }
}
