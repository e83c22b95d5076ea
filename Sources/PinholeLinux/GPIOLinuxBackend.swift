// The libgpiod v2 GPIO backend (LinuxGPIO): named lines on the board's GPIO character devices.

import PinholeCore

/// GPIO lines on real hardware through libgpiod v2 (and on gpio-sim in the VM test).
///
/// Lines are found by name (`gpio-line-names` in the device tree) on every
/// `/dev/gpiochip*`, never by number. Inputs get bias, active-low, kernel debounce and
/// both-edge detection with CLOCK_MONOTONIC timestamps and per-line sequence numbers; a
/// thread per input waits for edges and posts them to the event loop, so `onEdge` always
/// runs on the loop. Create and use it on the loop's thread.
public final class LinuxGPIO: GPIOBackend {
    private let loop: EventLoop
    private let consumer: String
    private let chipPaths: () -> [String]

    /// Creates the backend. `consumer` is the name other programs see holding the lines
    /// (`gpioinfo`); `chips` lists the character devices to search (default: every
    /// /dev/gpiochip*, scanned at each request).
    public init(loop: EventLoop, consumer: String = "pinhole", chips: [String]? = nil) {
        self.loop = loop
        self.consumer = consumer
        if let chips {
            self.chipPaths = { chips }
        } else {
            self.chipPaths = { GPIOChip.devicePaths() }
        }
    }

    /// The GPIO character devices this backend searches, in order.
    public var chips: [String] { chipPaths() }

    /// Where the line called `name` is: its chip's character device and the line's offset
    /// on that chip. Throws as a request for it would (`GPIOError.lineNotFound`, `.system`).
    public func location(of name: String) throws -> (chip: String, offset: UInt32) {
        let location = try GPIOChip.locate(name, in: chipPaths())
        return (location.chip.path, location.offset)
    }

    /// Requests an input with edge detection on both edges. Throws `GPIOError.lineNotFound`,
    /// `.lineBusy` (EBUSY: another program holds it) or `.system`.
    public func requestInput(_ config: InputLineConfig, onEdge: @escaping (LineEdge) -> Void) throws
        -> any InputLine
    {
        let location = try GPIOChip.locate(config.name, in: chipPaths())
        let settings = GPIOLineSettings(
            direction: .input, activeLow: config.activeLow, bias: config.bias,
            debounce: config.debounce, edgeDetection: true)
        let request = try GPIOLineRequest(
            lineName: config.name, location: location, settings: settings,
            consumer: consumer)
        let line = LinuxInputLine(name: config.name, request: request, onEdge: onEdge)
        try line.start(loop: loop)
        return line
    }

    /// Requests an output, driven inactive (off) from the start.
    public func requestOutput(name: String, activeLow: Bool) throws -> any OutputLine {
        let location = try GPIOChip.locate(name, in: chipPaths())
        let settings = GPIOLineSettings(direction: .output, activeLow: activeLow, bias: nil)
        let request = try GPIOLineRequest(
            lineName: name, location: location, settings: settings, consumer: consumer)
        return LinuxOutputLine(name: name, request: request)
    }
}
