// Restarting a camera that stopped sending frames, keeping pending captures alive.

import PinholeCore

extension CaptureEngine {
    /// The watchdog saw no frame for `silence`: stop and start the camera again.
    func cameraStalled(_ silence: Duration) {
        guard let camera = current else { return }
        focus.detach()
        device?.stop()
        perform(machine.streamRestarted())
        do {
            if let stalled = device {
                do { try startDevice(stalled, camera: camera) } catch {
                    // Try a fresh handle, as after a hot-unplug.
                    stalled.close()
                    device = nil
                    try startDevice(try provider.open(id: camera.id), camera: camera)
                }
            } else {
                try startDevice(try provider.open(id: camera.id), camera: camera)
            }
            report(.cameraRestarted(camera: camera.model, silence: silence))
        } catch {
            // The watchdog stays armed and tries again after another timeout.
            report(.restartFailed(camera: camera.model, reason: "\(error)"))
        }
    }
}
