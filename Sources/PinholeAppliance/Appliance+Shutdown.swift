// The process's shutdown: outputs off at once, then a bounded wait for the camera to answer its stop and close.

import PinholeCapture
import PinholeCore

extension Appliance {
    /// How long the process's shutdown waits for the camera's stop and close: the two
    /// commands' deadlines (`CaptureEngine.cameraCommandDeadline`, 5 s each).
    public var shutdownCameraWait: Duration { engine.cameraCommandDeadline * 2 }

    /// Shuts down as `shutdown()` does (outputs off, the camera stopped through its session),
    /// then calls `done` on the loop once the camera answered its stop and close, or after
    /// `limit` with a line saying which command the camera has not answered and that the
    /// process goes on without it. The loop keeps running meanwhile: photos being saved are
    /// saved.
    public func shutdown(
        waitingForCameraAtMost limit: Duration, then done: @escaping (_ late: String?) -> Void
    ) {
        shutdown()
        engine.stop(waitingAtMost: limit) { [loop] unanswered in
            guard let unanswered else { return done(nil) }
            let waited = Int((loop.now - unanswered.since).milliseconds / 1000)
            done(
                "camera \(unanswered.camera) has not answered `\(unanswered.name)` for \(waited) s: "
                    + "exiting without it (the kernel releases the camera when the process ends)")
        }
    }
}
