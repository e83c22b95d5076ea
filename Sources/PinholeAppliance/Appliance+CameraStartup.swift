// Opening the camera at start with a deadline: a camera that misses it is reported missing and retried.

import PinholeCore

/// The timers of the camera's opening.
struct CameraStartupTimers {
    /// When the open under way began.
    var began: Instant?
    /// Fires when the open under way misses `cameraOpenDeadline`.
    var deadline: TimerID?
    /// Fires when a failed open is tried again.
    var retry: TimerID?
    /// The problem last reported, so that a retry failing the same way is not reported again.
    var lastReported: String?
}

extension Appliance {
    /// Begins opening the preferred camera without blocking the loop. Within
    /// `cameraOpenDeadline` nothing is said; past it the camera is reported missing (error
    /// LED, `problems`, `status`) while the open goes on; when it fails, it is tried again
    /// every `cameraRetryInterval`. Once the camera streams it shows "ready".
    func openCamera() {
        cancelCameraTimers()
        cameraStartup.began = loop.now
        cameraStartup.deadline = loop.schedule(after: cameraOpenDeadline) { [weak self] in
            self?.cameraMissedDeadline()
        }
        engine.beginStart { [weak self] error in self?.cameraOpenEnded(error) }
    }

    /// Stops waiting for and retrying the camera (shutdown).
    func cancelCameraStartup() {
        cancelCameraTimers()
        cameraStartup = CameraStartupTimers()
        cameraMissing = nil
    }

    private func cancelCameraTimers() {
        if let timer = cameraStartup.deadline { loop.cancel(timer) }
        if let timer = cameraStartup.retry { loop.cancel(timer) }
        cameraStartup.deadline = nil
        cameraStartup.retry = nil
    }

    private func cameraMissedDeadline() {
        cameraStartup.deadline = nil
        guard engine.isOpening else { return }
        let seconds = Int(cameraOpenDeadline.milliseconds / 1000)
        let reason =
            "the camera did not open within \(seconds) s (the camera or its driver does not answer):"
            + " still waiting for it; check the camera cable and `dmesg`"
        cameraMissing = reason
        indicator.show(.noCamera)
        report(reason)
    }

    private func cameraOpenEnded(_ error: (any Error)?) {
        if let timer = cameraStartup.deadline { loop.cancel(timer) }
        cameraStartup.deadline = nil
        let waited = cameraStartup.began.map { loop.now - $0 } ?? .zero
        guard let error else {
            if cameraMissing != nil, let camera = engine.current {
                emit(.notice("camera \(camera.model) opened after \(Int(waited.milliseconds / 1000)) s"))
            }
            cameraMissing = nil
            cameraStartup.lastReported = nil
            indicator.show(.ready)
            if let camera = engine.current { emit(.cameraChanged(camera)) }
            return
        }
        let retry = Int(cameraRetryInterval.milliseconds / 1000)
        cameraMissing = "\(error) (trying again every \(retry) s)"
        indicator.show(.noCamera)
        report("\(error)")
        cameraStartup.retry = loop.schedule(after: cameraRetryInterval) { [weak self] in
            guard let self else { return }
            self.cameraStartup.retry = nil
            // A camera chosen meanwhile (`camera select`) needs no retry.
            guard self.engine.current == nil, !self.engine.isOpening else { return }
            self.openCamera()
        }
    }

    /// A problem, unless the same one was the last reported (a retry failing the same way).
    private func report(_ message: String) {
        guard message != cameraStartup.lastReported else { return }
        cameraStartup.lastReported = message
        problem(message)
    }
}
