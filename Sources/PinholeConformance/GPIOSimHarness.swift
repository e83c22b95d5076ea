// The GPIO contract's harness on real hardware: the libgpiod backend on gpio-sim lines, in real time.

import PinholeCore
import PinholeLinux

/// `LinuxGPIO` on a gpio-sim chip: inputs driven and outputs read through gpio-sim's sysfs
/// attributes, time passing for real (the VM test).
public final class GPIOSimHarness: GPIOContractHarness {
    /// The backend under test.
    public var gpio: any GPIOBackend { linux }
    /// A real-time loop the backend posts its edges to.
    public let loop = EventLoop(mode: .realTime)
    /// The consumer name the lines are requested as.
    public let consumer: String
    private let linux: LinuxGPIO
    private var simLines: [String: GPIOSimLine] = [:]

    /// The debounce period the contract asks of gpio-sim lines. A glitch here is two sysfs
    /// writes, and the VM test's emulated (TCG) guest stretched every one of them to 65–78 ms
    /// at host load 12–17 (10 ms glitches are not possible there). 300 ms leaves such a guest
    /// four times its longest measured glitch, and a backend that ignored the period (and
    /// reported the 65–78 ms glitches) still fails the check.
    public static let debounceMilliseconds = 300
    /// `debounceMilliseconds` as a duration.
    public static var debounce: Duration { .milliseconds(debounceMilliseconds) }

    /// Creates the harness over every GPIO chip of the machine.
    public init(consumer: String = "pinhole-gpio-check") {
        self.consumer = consumer
        self.linux = LinuxGPIO(loop: loop, consumer: consumer)
    }

    /// Whether a gpio-sim chip carries a line called `line` (the contract can run here).
    public static func gpioSimCarries(_ line: String) -> Bool {
        (try? GPIOSimLine(name: line, gpio: LinuxGPIO(loop: EventLoop(mode: .realTime)))) != nil
    }

    /// Sets gpio-sim's pull for the line.
    public func drive(_ line: String, high: Bool) throws {
        try simLine(line).drive(high: high)
    }

    /// Nothing to do: requesting a line with a bias sets gpio-sim's pull to it.
    public func undrive(_ line: String) throws {}

    /// gpio-sim's `value` of the line.
    public func level(_ line: String) throws -> Bool {
        try simLine(line).level()
    }

    private func simLine(_ name: String) throws -> GPIOSimLine {
        if let line = simLines[name] { return line }
        let line = try GPIOSimLine(name: name, gpio: linux)
        simLines[name] = line
        return line
    }

    /// Runs posted work (edges) every millisecond until `done` or the time is up.
    public func pass(_ duration: Duration, until done: () -> Bool) {
        loop.runPosted(for: duration, until: done)
    }
}
