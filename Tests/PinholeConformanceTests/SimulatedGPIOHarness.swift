// The GPIO contract's harness for the simulated chip: its own wire levels, on virtual time.

import PinholeConformance
import PinholeCore
import PinholeSim

/// `SimulatedGPIO` as the contract sees it: inputs driven and outputs read through the
/// chip's physical levels, time advanced on a virtual loop a millisecond at a time.
final class SimulatedGPIOHarness: GPIOContractHarness {
    let loop = EventLoop.virtual()
    let consumer = "pinhole-contract"
    let chip: SimulatedGPIO

    init(lineNames: [String] = ["GPIO17", "GPIO27", "GPIO24", "GPIO25"]) {
        chip = SimulatedGPIO(loop: loop, lineNames: lineNames, consumer: consumer)
    }

    var gpio: any GPIOBackend { chip }

    func drive(_ line: String, high: Bool) throws { chip.setLevel(line, high: high) }

    func undrive(_ line: String) throws { chip.undrive(line) }

    func level(_ line: String) throws -> Bool {
        guard let level = chip.outputLevel(line) else {
            throw HarnessError(description: "\(line) is not an output that was ever driven")
        }
        return level
    }

    func pass(_ duration: Duration, until done: () -> Bool) {
        let deadline = loop.now + duration
        while loop.now < deadline, !done() { loop.advance(by: .milliseconds(1)) }
    }
}

/// A line the harness cannot read.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
}
