// The libgpiod input and output lines handed to the behaviour.

import PinholeCore

/// A requested input line with edge detection; edges arrive on the loop.
final class LinuxInputLine: InputLine {
    let name: String
    private let request: GPIOLineRequest
    private var reader: GPIOEdgeReader?
    private let onEdge: (LineEdge) -> Void

    init(name: String, request: GPIOLineRequest, onEdge: @escaping (LineEdge) -> Void) {
        self.name = name
        self.request = request
        self.onEdge = onEdge
    }

    /// Starts the reader thread. Edges it posts are dropped once the line is released.
    func start(loop: EventLoop) throws {
        let target = LoopBound(WeakInput(self), loop: loop)
        let reader = try GPIOEdgeReader(request: request, loop: loop) { edges in
            target.value.line?.deliver(edges)
        }
        try reader.start()
        self.reader = reader
    }

    deinit { release() }

    func read() throws -> Bool { try request.value() }

    func release() {
        reader?.stop()
        reader = nil
        request.release()
    }

    private func deliver(_ edges: [GPIORawEdge]) {
        guard reader != nil else { return }
        for edge in edges {
            onEdge(
                LineEdge(
                    line: name, active: edge.rising,
                    timestamp: Instant(nanoseconds: Int64(clamping: edge.timestampNanoseconds)),
                    sequence: edge.lineSequence))
        }
    }
}

/// A weak reference that can travel to the loop inside a `LoopBound`.
private struct WeakInput {
    weak var line: LinuxInputLine?
    init(_ line: LinuxInputLine) { self.line = line }
}

/// A requested output line, initially off.
final class LinuxOutputLine: OutputLine {
    let name: String
    private let request: GPIOLineRequest
    private(set) var value = false
    private var released = false

    init(name: String, request: GPIOLineRequest) {
        self.name = name
        self.request = request
    }

    deinit { release() }

    func set(_ on: Bool) throws {
        try request.setValue(on)
        value = on
    }

    /// Drives the line off, then gives it back (the kernel may then let it float).
    func release() {
        guard !released else { return }
        released = true
        try? request.setValue(false)
        value = false
        request.release()
    }
}
