// Live Photos on the appliance: a saved still paired with the pre-roll ring's clip around its exposure.

import PinholeCapture
import PinholeCore

extension Appliance {
    /// Why a Live Photo cannot be taken now (nil: it can): no recorder, no camera with a video
    /// stream, or a ring too short for the window.
    public var livePhotoRefusal: String? {
        guard let recorder else {
            return "Live Photos need recording: this board has no video encoder or camera video stream"
        }
        guard recorder.keepsLivePhotos else {
            return
                "Live Photos need a \(ClipRecorder.liveRingSeconds(recorder.settings)) s pre-roll ring: set live = true in [capture]"
        }
        guard let camera = engine.current, !camera.videoSizes.isEmpty else {
            return "the camera delivers no video stream"
        }
        return nil
    }

    /// Pairs a saved photo with the ring's clip from 1.5 s before to 1.5 s after its exposing
    /// frame (`ClipRecorder.pairMotion`). A recording under way goes on and is kept; the still
    /// is always kept, and when no clip can be made it stays a photo and a `live failed` line
    /// says why.
    func pairMotion(
        _ capture: CaptureResult, then completion: @escaping (Result<LiveMotion, any Error>) -> Void
    ) {
        if let refusal = livePhotoRefusal {
            let error = RecordingError.unavailable(refusal)
            emit(.recording(.liveFailed(photoID: capture.photo.id, message: "\(error)")))
            completion(.failure(error))
            return
        }
        guard let recorder, let camera = engine.current else {
            completion(.failure(RecordingError.unavailable("the camera stopped before the motion was cut")))
            return
        }
        recorder.pairMotion(
            photoID: capture.photo.id, exposure: capture.frame.sensorTimestamp,
            metadata: clipMetadata(camera),
            completion: completion)
    }
}
