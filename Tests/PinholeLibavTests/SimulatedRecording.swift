// The simulated back camera feeding a ClipRecorder through real libx264: the recording tests' common rig.

import PinholeCapture
import PinholeCore
import PinholeLibav
import PinholeSim

/// A virtual-time loop, the simulated back camera streaming 160×96 video at 10 fps, and a
/// recorder on the real libav backend taking every frame; nothing records until the test starts it.
struct SimulatedRecording {
    let loop = EventLoop.virtual()
    let camera: any CameraDevice
    let recorder: ClipRecorder

    /// Opens and starts the camera with `store` behind the recorder; `bitRate` nil keeps the default.
    init(store: any ClipStore, bitRate: Int? = nil, ringSeconds: Double = 0) throws {
        let provider = SimulatedCameraProvider(loop: loop, world: SimWorld(), specs: [.back])
        camera = try provider.open(id: SimCameraSpec.back.id)
        var settings = VideoSettings()
        settings.size = PixelSize(width: 160, height: 96)
        settings.fps = 10
        if let bitRate { settings.bitRate = bitRate }
        let backend = LibavVideoBackend()
        recorder = ClipRecorder(
            loop: loop, backend: backend, store: store, settings: settings,
            pick: try settings.pickEncoder(hardwareEncoder: false, libavcodecHas: backend.available),
            ringSeconds: ringSeconds)
        _ = try camera.configure(
            StreamRequest(stillSize: SimCameraSpec.back.pixelArraySize, video: recorder.videoStream))
        let recorder = recorder
        try camera.start { frame in
            recorder.frameArrived(frame)
            frame.release()
        }
    }
}
