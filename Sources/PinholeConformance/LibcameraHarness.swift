// The camera contract's harness on real hardware: the libcamera backend (vimc in the VM), in real time.

import PinholeCore
import PinholeLinux

/// `LibcameraProvider` on whatever cameras libcamera sees, time passing for real.
public final class LibcameraHarness: CameraContractHarness {
    /// A real-time loop the backend posts its frames to.
    public let loop = EventLoop(mode: .realTime)
    /// The backend under test.
    public let provider: any CameraProvider
    /// Ten seconds: vimc makes a frame every 0.6–2 s under TCG.
    public let frameTimeout: Duration = .seconds(10)

    /// Creates the harness (the process's one libcamera CameraManager starts on first use).
    public init() { provider = LibcameraProvider(loop: loop) }

    /// Runs posted work (frames) every millisecond until `done` or the time is up.
    public func pass(_ duration: Duration, until done: () -> Bool) {
        loop.runPosted(for: duration, until: done)
    }
}
