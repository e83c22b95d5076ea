// Camera standby: stop streaming to save power while keeping the camera open, and wake it again.

import PinholeCore

extension CaptureEngine {
    /// Whether the camera is open but not streaming.
    public var isInStandby: Bool { standby.asleep }

    /// Time from the last wake to its first usable frame (nil: no wake yet).
    public var lastWakeCost: Duration? { standby.lastWakeCost }

    /// Wakes since start.
    public var wakeCount: Int { standby.wakes }

    /// Stops streaming (the camera stays open and configured). Refused — returns false — while
    /// a capture waits or is being saved, while a clip is being recorded, or when no camera runs.
    @discardableResult
    public func enterStandby() -> Bool {
        guard let device, let camera = current, !standby.asleep, !machine.isBusy, !session.isBusy,
            keepsStreaming?() != true
        else { return false }
        watchdog.stop()
        focus.detach()
        session.run("stop", camera: camera.model) { done in device.stop(then: done) }
        perform(machine.streamStopped(failWaiting: false))
        standby.asleep = true
        standby.wokeAt = nil
        standby.firstFrameAt = nil
        return true
    }

    /// Starts streaming again, through the session (after the standby's stop has answered);
    /// captures asked for meanwhile are served by the first frames (their selection says
    /// `after-wake`). `completion` runs on the loop once the camera streams, or with the error.
    public func wake(then completion: @escaping ((any Error)?) -> Void = { _ in }) {
        guard standby.asleep, let device, let camera = current else { return completion(nil) }
        standby.wokeAt = loop.now
        standby.firstFrameAt = nil
        standby.wakes += 1
        startDevice(device, camera: camera, then: completion)
    }
}
