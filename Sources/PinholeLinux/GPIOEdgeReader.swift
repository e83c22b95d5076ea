// A thread per input request that waits for kernel edge events and posts them to the loop.

import PinholeCore
import PinholeSystem
import SystemPackage

/// Blocks on a line request's file descriptor and hands each batch of edges to the event
/// loop with `EventLoop.post`. `stop()` wakes it through a pipe and joins it, so no edge
/// is read after the line is released.
final class GPIOEdgeReader: @unchecked Sendable {
    private let request: GPIOLineRequest
    private let buffer: GPIOEdgeBuffer
    private let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    private let loop: EventLoop
    private let deliver: @Sendable ([GPIORawEdge]) -> Void
    private var thread: SystemThread?

    /// Creates a reader; `deliver` runs on the loop with each batch.
    init(request: GPIOLineRequest, loop: EventLoop, deliver: @escaping @Sendable ([GPIORawEdge]) -> Void)
        throws
    {
        let buffer = try GPIOEdgeBuffer()
        do {
            wake = try FileDescriptor.pipe(options: .closeOnExec)
        } catch {
            throw GPIOError.system(
                operation: "create the reader's wake-up pipe", line: request.lineName, errno: error)
        }
        self.request = request
        self.buffer = buffer
        self.loop = loop
        self.deliver = deliver
    }

    deinit {
        try? wake.readEnd.close()
        try? wake.writeEnd.close()
    }

    /// Starts the thread.
    func start() throws {
        do {
            thread = try SystemThread.start { [self] in run() }
        } catch {
            throw GPIOError.system(
                operation: "start the edge reader thread", line: request.lineName, errno: error)
        }
    }

    /// Wakes the thread and waits for it to finish. Call from the loop thread.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        // A full pipe already wakes the reader; nothing else can fail here.
        _ = try? wake.writeEnd.writeAll([1])
        thread.join()
    }

    private func run() {
        let edges = FileDescriptor(rawValue: request.fileDescriptor)
        while true {
            let ready: [InputReadiness]
            do {
                ready = try FileDescriptor.waitForInput([edges, wake.readEnd])
            } catch {
                report(GPIOError.system(operation: "wait for edges", line: request.lineName, errno: error))
                return
            }
            if ready[1].any { return }
            if ready[0].readable {
                do {
                    let batch = try request.readEdges(into: buffer)
                    if !batch.isEmpty {
                        let deliver = self.deliver
                        loop.post { deliver(batch) }
                    }
                } catch {
                    report(error)
                    return
                }
            } else if ready[0].any {
                report(
                    GPIOError.system(
                        operation: "wait for edges (poll revents \(ready[0].events))",
                        line: request.lineName, errno: .ioError))
                return
            }
        }
    }

    /// A reader that cannot go on says so on standard error; the line stays requested.
    private func report(_ error: Error) {
        let text = "pinhole: GPIO edge reader for \(request.lineName) stopped: \(error)\n"
        _ = try? FileDescriptor.standardError.writeAll(Array(text.utf8))
    }
}
