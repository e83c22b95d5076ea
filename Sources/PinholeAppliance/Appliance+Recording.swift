// Recording on the appliance: the recorder fed by the engine, clip metadata from the photo's, events.

import PinholeCapture
import PinholeCore
import PinholeImaging

extension RecordingEvent {
    /// The line-mode text after `event `: `recording started ID`, `recording saved ID FILE`.
    public var line: String {
        switch self {
        case .started(let id): return "recording started \(id)"
        case .saved(let id, let clip, let note):
            return "recording saved \(id) \(clip.path)" + (note.map { " (\($0))" } ?? "")
        case .failed(let id, let message): return "recording failed \(id) \(message)"
        case .liveSaved(let photoID, let file, let frames):
            return "live saved \(photoID) \(file) (\(frames) frames)"
        case .liveFailed(let photoID, let message): return "live failed \(photoID) \(message)"
        }
    }
}

extension Appliance {
    /// Sets up recording: the engine asks each camera for the recorder's video stream (from its
    /// next start) and hands it every frame; a camera switch closes the clip first (it is
    /// kept), standby waits while recording, and the recorder's events go to observers.
    public func attachRecorder(_ recorder: ClipRecorder) {
        self.recorder = recorder
        if captureMode == .video { recorder.keepEncoderReady(true) }
        engine.videoStream = recorder.videoStream
        engine.onVideoFrame = { [weak recorder] frame in recorder?.frameArrived(frame) }
        engine.keepsStreaming = { [weak recorder] in recorder?.isRecording ?? false }
        engine.onStreamStopping = { [weak recorder] reason in
            guard let recorder, recorder.isRecording else { return }
            try? recorder.stop(cutShort: reason) { _ in }
        }
        recorder.onEvent = { [weak self, weak recorder] event in
            guard let self, let recorder else { return }
            switch event {
            case .started:
                self.indicator.show(.recording(true))
                self.checkStorageWhileRecording()
            case .saved, .failed:
                self.indicator.show(.recording(recorder.isRecording))
                self.checkStorage()  // a clip's bytes count as a photo's: the low mark, recycling
            case .liveSaved, .liveFailed: break
            }
            self.emit(.recording(event))
        }
        // A camera already running was configured without the video stream: restart it.
        if let camera = engine.current, !camera.videoSizes.isEmpty {
            do {
                try engine.run(camera) { [weak self] error in
                    if let error {
                        self?.problem(
                            "camera \(camera.model) did not restart with its video stream: \(error)")
                    }
                }
            } catch {
                problem("camera \(camera.model) was not restarted with its video stream: \(error)")
            }
        }
    }

    /// While a recording grows, looks at the free space every `recordingStorageCheck` (the
    /// low-storage mark, and with `when_full = recycle` room made before the library's reserve
    /// ends the clip).
    func checkStorageWhileRecording() {
        _ = loop.schedule(after: Self.recordingStorageCheck) { [weak self] in
            guard let self, self.recorder?.isRecording == true else { return }
            self.checkStorage()
            self.checkStorageWhileRecording()
        }
    }

    /// How often the free space is looked at while recording.
    static let recordingStorageCheck = Duration.seconds(5)

    /// Starts a clip now (`record start`): up to `preSeconds` from the pre-roll ring, at most
    /// `maxSeconds` long. Refused when no camera delivers the video stream.
    @discardableResult
    public func startRecording(maxSeconds: Double? = nil, preSeconds: Double = 0) throws(RecordingError)
        -> Int
    {
        let (recorder, camera) = try recordingCamera()
        return try recorder.start(
            maxSeconds: maxSeconds, preSeconds: preSeconds, metadata: clipMetadata(camera))
    }

    /// The record button: stops the clip under way, else starts one (`max_duration_s` long);
    /// a refusal is reported as a problem (the log, `status`).
    func toggleRecording() {
        do {
            if let recorder, recorder.isRecording {
                try recorder.stop { _ in }
            } else {
                try startRecording()
            }
        } catch {
            problem("record button: \(error)")
        }
    }

    /// A trigger's clip: from `preSeconds` before `edge` (at most what the ring keeps) to
    /// `postSeconds` after it, or the clip under way extended.
    public func triggerClip(at edge: Instant, preSeconds: Double, postSeconds: Double) throws(RecordingError)
        -> TriggerClipOutcome
    {
        let (recorder, camera) = try recordingCamera()
        return try recorder.trigger(
            at: edge, preSeconds: min(max(0, preSeconds), recorder.ringSeconds), postSeconds: postSeconds,
            metadata: clipMetadata(camera))
    }

    /// The recorder and the camera it records from; refused when either is missing or the
    /// camera's video stream is not the one asked for.
    private func recordingCamera() throws(RecordingError) -> (ClipRecorder, CameraInfo) {
        guard let recorder else { throw .unavailable("recording is not set up on this board") }
        guard let camera = engine.current else { throw .unavailable("no camera is running") }
        guard !camera.videoSizes.isEmpty else {
            throw .unavailable("camera \(camera.model) delivers no video stream")
        }
        if case .adjusted(let request, _)? = engine.configuration, request.video != recorder.videoStream {
            guard request.video?.size == recorder.settings.size else {
                throw .settings(.sizeNotOffered(recorder.settings.size, offered: camera.videoSizes))
            }
            throw .settings(.badRate(recorder.settings.fps, offered: camera.videoFrameRates))
        }
        return (recorder, camera)
    }

    /// The movie's metadata, from what a photo taken now would carry (make, model, GPS, clock
    /// trust, the rotation from mount and tilt).
    func clipMetadata(_ camera: CameraInfo) -> ClipMetadata {
        let frame =
            engine.lastFrame
            ?? FrameMetadata(sequence: 0, sensorTimestamp: loop.now, exposureTime: .zero, analogueGain: 1)
        var photo = engine.photoMetadata(for: frame, camera: camera)
        captureEngine(engine, complete: &photo)
        let rotation: Int
        switch photo.orientation {
        case .right, .rightMirrored: rotation = 90
        case .down, .downMirrored: rotation = 180
        case .left, .leftMirrored: rotation = 270
        default: rotation = 0
        }
        return ClipMetadata(
            creationTime: loop.wallNow, latitude: photo.gps?.latitude, longitude: photo.gps?.longitude,
            altitude: photo.gps?.altitude, rotationDegrees: rotation, make: photo.make, model: photo.model,
            clockTrust: photo.clockTrust ?? .unknown)
    }
}
