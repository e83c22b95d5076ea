// Restarting a camera that stopped sending frames, keeping pending captures alive, through the camera's session.

import PinholeCore

extension CaptureEngine {
    /// The watchdog saw no frame for `silence`: stop and start the camera again, through the
    /// session (a stop that hangs is reported at its deadline, and the start waits for it).
    /// While a command is still under way the stall is left to it.
    func cameraStalled(_ silence: Duration) {
        guard let camera = current, let stalled = device, !session.isBusy else { return }
        // A clip under way is closed and kept first: what was recorded is not held hostage
        // to a camera that may never come back.
        onStreamStopping?("the camera stopped sending frames")
        focus.detach()
        perform(machine.streamRestarted())
        session.run("stop", camera: camera.model) { done in stalled.stop(then: done) }
        startDevice(stalled, camera: camera) { [weak self] error in
            guard let self else { return }
            guard error != nil else {
                self.capturesWaitForTheRestartedCamera()
                return self.report(.cameraRestarted(camera: camera.model, silence: silence))
            }
            guard self.device === stalled else { return }
            // Try a fresh handle, as after a hot-unplug.
            self.retire(stalled, camera: camera)
            self.device = nil
            self.session.run("open", camera: camera.model) { [weak self] done in
                guard let self else { return done() }
                self.provider.open(id: camera.id) { [weak self] result in
                    done()
                    guard let self, self.device == nil, self.current?.id == camera.id else { return }
                    switch result {
                    case .failure(let error):
                        // The watchdog stays armed and tries again after another timeout.
                        self.report(.restartFailed(camera: camera.model, reason: "\(error)"))
                    case .success(let fresh):
                        self.startDevice(fresh, camera: camera) { [weak self] error in
                            if let error {
                                self?.report(.restartFailed(camera: camera.model, reason: "\(error)"))
                            } else {
                                self?.capturesWaitForTheRestartedCamera()
                                self?.report(.cameraRestarted(camera: camera.model, silence: silence))
                            }
                        }
                    }
                }
            }
        }
    }
}
