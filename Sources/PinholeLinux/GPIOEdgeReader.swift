// A thread per input request that waits for kernel edge events and posts them to the loop.

import PinholeCore
import PinholeSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Blocks on a line request's file descriptor and hands each batch of edges to the event
/// loop with `EventLoop.post`. `stop()` wakes it through a pipe and joins it, so no edge
/// is read after the line is released.
final class GPIOEdgeReader: @unchecked Sendable {
    private let request: GPIOLineRequest
    private let buffer: GPIOEdgeBuffer
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let loop: EventLoop
    private let deliver: @Sendable ([GPIORawEdge]) -> Void
    private var thread: SystemThread?

    /// Creates a reader; `deliver` runs on the loop with each batch.
    init(request: GPIOLineRequest, loop: EventLoop, deliver: @escaping @Sendable ([GPIORawEdge]) -> Void)
        throws
    {
        let buffer = try GPIOEdgeBuffer()
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            throw GPIOError.system(
                operation: "create the reader's wake-up pipe", line: request.lineName, errno: errno)
        }
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        self.request = request
        self.buffer = buffer
        self.wakeFD = pipeFDs[0]
        self.wakeWriteFD = pipeFDs[1]
        self.loop = loop
        self.deliver = deliver
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// Starts the thread.
    func start() throws {
        do {
            thread = try SystemThread.start { [self] in run() }
        } catch {
            throw GPIOError.system(
                operation: "start the edge reader thread", line: request.lineName, errno: error.rawValue)
        }
    }

    /// Wakes the thread and waits for it to finish. Call from the loop thread.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
        thread.join()
    }

    private func run() {
        var fds = [
            pollfd(fd: request.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                report(GPIOError.system(operation: "wait for edges", line: request.lineName, errno: errno))
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents & Int16(POLLIN) != 0 {
                do {
                    let edges = try request.readEdges(into: buffer)
                    if !edges.isEmpty {
                        let deliver = self.deliver
                        loop.post { deliver(edges) }
                    }
                } catch {
                    report(error)
                    return
                }
            } else if fds[0].revents != 0 {
                report(
                    GPIOError.system(
                        operation: "wait for edges (poll revents \(fds[0].revents))",
                        line: request.lineName, errno: EIO))
                return
            }
        }
    }

    /// A reader that cannot go on says so on standard error; the line stays requested.
    private func report(_ error: Error) {
        let text = "pinhole: GPIO edge reader for \(request.lineName) stopped: \(error)\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
