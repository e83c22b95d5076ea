// Notices a camera that stops sending frames, so that the engine can restart it.

import PinholeCore

/// Watches frame arrivals; when none arrives for `effectiveTimeout`, calls `onStall` with the
/// silence, then keeps watching (a failed restart is retried).
///
/// The timeout adapts to the camera: at least `timeout`, four times the longest of the last
/// 16 gaps between frames (a slow or bursty camera, such as vimc under emulation, is not
/// mistaken for a dead one), four exposure times, and
/// `startupTimeout` until the second frame after a start (the first gap of a warming camera
/// is not yet its rhythm). Each stall doubles it, up to
/// `maximumTimeout`, until the camera has kept up 16 frames: a dead camera is retried without
/// a storm, and a camera slower than the timeout settles instead of being restarted forever.
public final class CameraWatchdog {
    private let loop: EventLoop
    private let onStall: (Duration) -> Void
    private var timer: TimerID?
    private var lastFrame: Instant = .zero
    private var lastExposure: Duration = .zero
    private var recentGaps: [Duration] = []
    private static let gapsKept = 16
    private var framesSinceStart = 0
    private var consecutiveStalls = 0
    /// The shortest silence that counts as a stall.
    public var timeout: Duration = .seconds(1)
    /// The silence allowed before the first frame after a start.
    public var startupTimeout: Duration = .seconds(5)
    /// The longest the timeout grows to while restarts bring no frame back.
    public var maximumTimeout: Duration = .seconds(60)
    /// Stalls seen since creation.
    public private(set) var stalls = 0

    /// Creates a watchdog.
    public init(loop: EventLoop, onStall: @escaping (Duration) -> Void) {
        self.loop = loop
        self.onStall = onStall
    }

    /// The silence that counts as a stall while the camera keeps its rhythm: `timeout`, four
    /// times the longest recent gap, four exposure times (without the startup allowance and
    /// the backoff after stalls).
    public var rhythmTimeout: Duration { max(timeout, lastExposure * 4, (recentGaps.max() ?? .zero) * 4) }

    /// The silence that counts as a stall now.
    public var effectiveTimeout: Duration {
        var limit = rhythmTimeout
        // A camera warms up: until it has shown a gap between two frames of this start, the
        // startup allowance holds (vimc after a restart sends its first frames seconds apart).
        if framesSinceStart < 2 { limit = max(limit, startupTimeout) }
        for _ in 0..<min(consecutiveStalls, 16) { limit = limit * 2 }
        return min(limit, max(maximumTimeout, timeout))
    }

    /// Starts (or restarts) watching from now.
    public func start() {
        lastFrame = loop.now
        framesSinceStart = 0
        arm()
    }

    /// Stops watching.
    public func stop() {
        if let timer { loop.cancel(timer) }
        timer = nil
    }

    /// A frame arrived.
    public func frameArrived(exposure: Duration = .zero) {
        let now = loop.now
        if framesSinceStart > 0 {
            recentGaps.append(now - lastFrame)
            if recentGaps.count > Self.gapsKept { recentGaps.removeFirst() }
        }
        framesSinceStart += 1
        lastFrame = now
        lastExposure = exposure
        // The backoff lasts until the camera has kept up a run of frames: a camera slower
        // than the timeout (restarted before its next frame could come) must not be restarted
        // in a loop, and its gaps are learnt meanwhile.
        if framesSinceStart >= Self.gapsKept { consecutiveStalls = 0 }
        // The second frame after a start ends the startup allowance.
        if framesSinceStart <= 2 { arm() }
    }

    private func arm() {
        if let timer { loop.cancel(timer) }
        timer = loop.schedule(at: lastFrame + effectiveTimeout) { [weak self] in self?.check() }
    }

    private func check() {
        timer = nil
        let silence = loop.now - lastFrame
        guard silence >= effectiveTimeout else { return arm() }
        stalls += 1
        consecutiveStalls += 1
        onStall(silence)
        if timer == nil {  // the restart failed (a restart calls start(), which re-arms)
            lastFrame = loop.now
            arm()
        }
    }
}
