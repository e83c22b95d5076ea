// Notices a camera that stops sending frames, so that the engine can restart it.

import PinholeCore

/// Watches frame arrivals; when none arrives for `timeout` (longer for long exposures), calls
/// `onStall` with the silence, then keeps watching (a failed restart is retried).
public final class CameraWatchdog {
    private let loop: EventLoop
    private let onStall: (Duration) -> Void
    private var timer: TimerID?
    private var lastFrame: Instant = .zero
    private var lastExposure: Duration = .zero
    /// Silence that counts as a stall, at least; long exposures extend it.
    public var timeout: Duration = .seconds(1)
    /// Stalls seen since creation.
    public private(set) var stalls = 0

    /// Creates a watchdog.
    public init(loop: EventLoop, onStall: @escaping (Duration) -> Void) {
        self.loop = loop
        self.onStall = onStall
    }

    /// The silence that counts as a stall now.
    public var effectiveTimeout: Duration { max(timeout, lastExposure * 4) }

    /// Starts (or restarts) watching from now.
    public func start() {
        lastFrame = loop.now
        arm()
    }

    /// Stops watching.
    public func stop() {
        if let timer { loop.cancel(timer) }
        timer = nil
    }

    /// A frame arrived.
    public func frameArrived(exposure: Duration = .zero) {
        lastFrame = loop.now
        lastExposure = exposure
    }

    private func arm() {
        if let timer { loop.cancel(timer) }
        timer = loop.schedule(at: lastFrame + effectiveTimeout) { [weak self] in self?.check() }
    }

    private func check() {
        timer = nil
        let silence = loop.now - lastFrame
        if silence >= effectiveTimeout {
            stalls += 1
            lastFrame = loop.now
            arm()
            onStall(silence)
        } else {
            arm()
        }
    }
}
