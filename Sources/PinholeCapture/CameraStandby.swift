// Puts the camera in standby after a time without use, and wakes it for presses, triggers, slots and the viewfinder.

import PinholeCore

/// Standby policy over the capture engine: after `after` without use the camera stops
/// streaming; any use wakes it.
public final class CameraStandby {
    private let loop: EventLoop
    private let engine: CaptureEngine
    /// Whether the appliance has work under way (no standby then).
    package var isBusy: () -> Bool = { false }
    /// Called when the camera goes to standby or wakes ("standby", "wake timelapse 180 ms" …).
    package var onChange: ((String) -> Void)?
    /// Time without use before standby; nil: never.
    public var after: Duration? {
        didSet { rearm() }
    }
    /// When the camera was last used.
    public private(set) var lastUse: Instant
    /// What woke the camera last ("shutter", "trigger", "timelapse", "viewfinder" …).
    public private(set) var lastWakeReason: String?
    /// Times the camera went to standby.
    public private(set) var sleeps = 0
    private var timer: TimerID?

    package init(loop: EventLoop, engine: CaptureEngine) {
        self.loop = loop
        self.engine = engine
        lastUse = loop.now
    }

    /// Something used the camera: wake it if it sleeps, and start the idle time again.
    public func activity(_ reason: String) {
        lastUse = loop.now
        if engine.isInStandby {
            lastWakeReason = reason
            engine.wake { [weak self] error in
                if let error {
                    self?.onChange?("camera could not be woken for \(reason): \(error)")
                } else {
                    self?.onChange?("camera woke for \(reason)")
                }
            }
        }
        rearm()
    }

    /// Stops the idle timer (appliance shutdown).
    package func cancel() {
        if let timer { loop.cancel(timer) }
        timer = nil
    }

    private func rearm() {
        cancel()
        guard let after, !engine.isInStandby else { return }
        timer = loop.schedule(at: lastUse + after) { [weak self] in self?.idle() }
    }

    private func idle() {
        timer = nil
        guard let after else { return }
        if isBusy() || engine.current == nil {
            // Try again a little later; busy work counts as use once it ends.
            timer = loop.schedule(after: min(after, .seconds(1))) { [weak self] in self?.idle() }
            return
        }
        if engine.enterStandby() {
            sleeps += 1
            onChange?("camera in standby after \(Int(after.seconds)) s without use")
        } else {
            timer = loop.schedule(after: min(after, .seconds(1))) { [weak self] in self?.idle() }
        }
    }
}
