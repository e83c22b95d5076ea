// Reporting a camera whose command missed its deadline, and its answer: error LED, `problems`, `status`, log.

import PinholeCapture
import PinholeCore

extension Appliance {
    /// A camera command missed its deadline: the camera is reported missing (error LED,
    /// `problems`, `status`) while the loop goes on; when it answers, the report ends and the
    /// session goes on with the commands that waited (the restart, the wake, the switch).
    func cameraSessionNotice(_ notice: CameraSessionNotice) {
        switch notice {
        case .late(let command, let camera, let waited):
            let reason =
                "camera \(camera) has not answered `\(command)` for \(Int(waited.milliseconds / 1000)) s"
                + " (the camera or its driver does not answer): still waiting for it, then it is"
                + " started again; check the camera cable and `dmesg`"
            cameraMissing = reason
            indicator.show(.noCamera)
            problem(reason)
        case .answered(let command, let camera, let after):
            cameraMissing = nil
            emit(.notice("camera \(camera) answered `\(command)` after \(Int(after.milliseconds / 1000)) s"))
            if engine.current != nil { indicator.show(.ready) }
        }
    }
}
