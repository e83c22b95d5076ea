// What the GPIO contract suite needs from the world outside a backend: drive inputs, read outputs, let time pass.

import PinholeCore

/// The outside of a `GPIOBackend` under test: the wires. gpio-sim's sysfs in the VM, the
/// simulated chip's own levels in the unit tests. One contract suite runs over either.
public protocol GPIOContractHarness: AnyObject {
    /// The backend under test.
    var gpio: any GPIOBackend { get }
    /// The loop the backend delivers edges on; its clock is the edges' documented time base.
    var loop: EventLoop { get }
    /// The consumer name the backend requests lines as (a busy line must name it).
    var consumer: String { get }
    /// Drives an input's physical level from outside (true = high), as a button would.
    func drive(_ line: String, high: Bool) throws
    /// Stops driving a line from outside, so that the bias it is requested with decides its level.
    func undrive(_ line: String) throws
    /// The physical level of an output line as seen from outside (true = high).
    func level(_ line: String) throws -> Bool
    /// Lets up to `duration` pass on the loop's clock, running delivered work, and returns
    /// early once `done()` holds.
    func pass(_ duration: Duration, until done: () -> Bool)
}

extension GPIOContractHarness {
    /// Lets `duration` pass.
    public func pass(_ duration: Duration) { pass(duration) { false } }
}

/// A failed expectation of a contract suite, with what was seen.
struct ContractFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
