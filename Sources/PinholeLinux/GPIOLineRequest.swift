// One requested GPIO line (`gpiod_line_request`): settings, values and edge events.

import CGpiod
import PinholeCore
import PinholeSystem

#if canImport(Glibc)
    import Glibc
#endif

/// How a line is to be requested, in libgpiod's terms.
struct GPIOLineSettings {
    enum Direction { case input, output }

    var direction: Direction
    var activeLow: Bool
    var bias: LineBias?
    var debounce: Duration = .zero
    var edgeDetection = false
}

/// One edge as the kernel reported it.
struct GPIORawEdge: Sendable {
    /// Rising means the line became active (the kernel applies active-low to edges too).
    var rising: Bool
    /// CLOCK_MONOTONIC nanoseconds.
    var timestampNanoseconds: UInt64
    /// The kernel's per-line sequence number.
    var lineSequence: UInt64
}

/// A single-line request, released when the value goes away.
///
/// The loop thread reads and writes values while the line's reader thread reads edge
/// events: libgpiod keeps no mutable state in the request for either (each is one
/// ioctl or read on the request's file descriptor), and each thread has its own buffer.
final class GPIOLineRequest: @unchecked Sendable {
    let lineName: String
    let offset: UInt32
    private var handle: OpaquePointer?

    /// Requests `location`'s line (`gpiod_chip_request_lines`). EBUSY becomes
    /// `GPIOError.lineBusy` with the current holder.
    init(lineName: String, location: GPIOLineLocation, settings: GPIOLineSettings, consumer: String) throws {
        self.lineName = lineName
        self.offset = location.offset
        guard let lineSettings = gpiod_line_settings_new() else {
            throw Self.error("allocate settings", lineName)
        }
        defer { gpiod_line_settings_free(lineSettings) }
        try Self.apply(settings, to: lineSettings, line: lineName)

        guard let lineConfig = gpiod_line_config_new() else {
            throw Self.error("allocate line config", lineName)
        }
        defer { gpiod_line_config_free(lineConfig) }
        var offsets = [location.offset]
        guard gpiod_line_config_add_line_settings(lineConfig, &offsets, 1, lineSettings) == 0 else {
            throw Self.error("configure", lineName)
        }
        guard let requestConfig = gpiod_request_config_new() else {
            throw Self.error("allocate request config", lineName)
        }
        defer { gpiod_request_config_free(requestConfig) }
        gpiod_request_config_set_consumer(requestConfig, consumer)

        guard let handle = gpiod_chip_request_lines(location.chip.handle, requestConfig, lineConfig) else {
            let code = currentErrno
            if code == .resourceBusy {
                throw GPIOError.lineBusy(lineName, consumer: location.chip.consumer(at: location.offset))
            }
            throw GPIOError.system(operation: "request on \(location.chip.path)", line: lineName, errno: code)
        }
        self.handle = handle
    }

    deinit { release() }

    private static func apply(_ settings: GPIOLineSettings, to handle: OpaquePointer, line: String) throws {
        switch settings.direction {
        case .input:
            guard gpiod_line_settings_set_direction(handle, GPIOD_LINE_DIRECTION_INPUT) == 0 else {
                throw error("set direction", line)
            }
        case .output:
            guard gpiod_line_settings_set_direction(handle, GPIOD_LINE_DIRECTION_OUTPUT) == 0,
                gpiod_line_settings_set_output_value(handle, GPIOD_LINE_VALUE_INACTIVE) == 0
            else {
                throw error("set direction", line)
            }
        }
        gpiod_line_settings_set_active_low(handle, settings.activeLow)
        if let bias = settings.bias {
            let value: gpiod_line_bias
            switch bias {
            case .pullUp: value = GPIOD_LINE_BIAS_PULL_UP
            case .pullDown: value = GPIOD_LINE_BIAS_PULL_DOWN
            case .disabled: value = GPIOD_LINE_BIAS_DISABLED
            }
            guard gpiod_line_settings_set_bias(handle, value) == 0 else { throw error("set bias", line) }
        }
        if settings.edgeDetection {
            guard gpiod_line_settings_set_edge_detection(handle, GPIOD_LINE_EDGE_BOTH) == 0,
                gpiod_line_settings_set_event_clock(handle, GPIOD_LINE_CLOCK_MONOTONIC) == 0
            else {
                throw error("set edge detection", line)
            }
        }
        if settings.debounce > .zero {
            let micros = max(1, settings.debounce.nanoseconds / 1_000)
            gpiod_line_settings_set_debounce_period_us(handle, UInt(micros))
        }
    }

    private static func error(_ operation: String, _ line: String) -> GPIOError {
        .system(operation: operation, line: line, errno: currentErrno)
    }

    /// The request's file descriptor, readable when edge events are waiting.
    var fileDescriptor: Int32 {
        guard let handle else { return -1 }
        return gpiod_line_request_get_fd(handle)
    }

    /// The logical value (`gpiod_line_request_get_value`; true = active).
    func value() throws -> Bool {
        guard let handle else {
            throw GPIOError.system(operation: "read (released)", line: lineName, errno: .badFileDescriptor)
        }
        let value = gpiod_line_request_get_value(handle, offset)
        if value == GPIOD_LINE_VALUE_ERROR { throw Self.error("read", lineName) }
        return value == GPIOD_LINE_VALUE_ACTIVE
    }

    /// Drives the logical value (`gpiod_line_request_set_value`).
    func setValue(_ active: Bool) throws {
        guard let handle else {
            throw GPIOError.system(operation: "write (released)", line: lineName, errno: .badFileDescriptor)
        }
        let value = active ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE
        guard gpiod_line_request_set_value(handle, offset, value) == 0 else {
            throw Self.error("write", lineName)
        }
    }

    /// Reads the waiting edge events (`gpiod_line_request_read_edge_events`); blocks if
    /// there are none. Only the line's reader thread calls this, with its own buffer.
    func readEdges(into buffer: GPIOEdgeBuffer) throws -> [GPIORawEdge] {
        guard let handle else { return [] }
        let count = gpiod_line_request_read_edge_events(handle, buffer.handle, buffer.capacity)
        guard count >= 0 else { throw Self.error("read edge events", lineName) }
        return (0..<Int(count)).compactMap { index in
            guard let event = gpiod_edge_event_buffer_get_event(buffer.handle, UInt(index)) else {
                return nil
            }
            return GPIORawEdge(
                rising: gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE,
                timestampNanoseconds: gpiod_edge_event_get_timestamp_ns(event),
                lineSequence: UInt64(gpiod_edge_event_get_line_seqno(event)))
        }
    }

    /// Gives the line back to the kernel (`gpiod_line_request_release`). Idempotent.
    func release() {
        guard let handle else { return }
        self.handle = nil
        gpiod_line_request_release(handle)
    }
}

/// A buffer for edge events (`gpiod_edge_event_buffer`), owned by one reader thread.
final class GPIOEdgeBuffer {
    let handle: OpaquePointer
    let capacity: Int

    init(capacity: Int = 64) throws {
        guard let handle = gpiod_edge_event_buffer_new(capacity) else {
            throw GPIOError.system(operation: "allocate an edge event buffer", line: "", errno: currentErrno)
        }
        self.handle = handle
        self.capacity = capacity
    }

    deinit { gpiod_edge_event_buffer_free(handle) }
}
