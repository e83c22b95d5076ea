// What the camera contract suite needs from outside a camera backend: the provider, its loop, and time passing.

import PinholeCore

/// The outside of a `CameraProvider` under test: libcamera on vimc in the VM, the simulated
/// cameras on virtual time in the unit tests. One contract suite runs over either.
public protocol CameraContractHarness: AnyObject {
    /// The backend under test.
    var provider: any CameraProvider { get }
    /// The loop frames are delivered on; its clock is the frames' documented time base.
    var loop: EventLoop { get }
    /// How long to wait for one frame before calling the camera stalled (generous under emulation).
    var frameTimeout: Duration { get }
    /// Lets up to `duration` pass on the loop's clock, running delivered work, and returns
    /// early once `done()` holds.
    func pass(_ duration: Duration, until done: () -> Bool)
}
