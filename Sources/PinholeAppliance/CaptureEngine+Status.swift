// The capture engine's fields in the appliance's status snapshot (exposure, focus point, zoom, restarts).

import PinholeCapture

extension CaptureEngine {
    /// Adds the engine's exposure, focus and watchdog fields to a status snapshot.
    public func fillStatus(_ status: inout ApplianceStatus) {
        status.exposure = exposure.isManual ? "manual" : "auto"
        status.ev = exposure.ev
        status.metering = exposure.metering.rawValue
        status.awb = exposure.whiteBalance.rawValue
        status.exposureLocked = exposureLocked
        status.awbLocked = awbLocked
        let point = afPicturePoint
        status.afPoint = [point.x, point.y]
        status.aePoint = aePicturePoint.map { [$0.x, $0.y] }
        status.zoom = current == nil ? nil : zoom
        status.cameraRestarts = watchdog.stalls
        switch configuration {
        case .valid?: status.configuration = "valid"
        case .adjusted(_, let notes)?: status.configuration = "adjusted: " + notes.joined(separator: "; ")
        case nil: break
        }
    }
}
