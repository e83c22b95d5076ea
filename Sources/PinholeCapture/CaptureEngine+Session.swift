// Starting, switching and stopping the camera through its session: nothing here waits for the camera on the loop.

import PinholeCore

extension CaptureEngine {
    /// Stops the camera (pending captures fail) and gives it back: its stop and close go to
    /// the session and may answer later; the engine has no camera from now on.
    public func stop() {
        startAttempt += 1
        isOpening = false
        watchdog.stop()
        focus.detach()
        perform(machine.streamStopped(failWaiting: true))
        if let device, let camera = current { retire(device, camera: camera) }
        device = nil
        current = nil
        standby = EngineStandby()
    }

    /// Stops as `stop()` does, then calls `done` on the loop once the camera answered its
    /// stop and close, or after `limit` with the command it still waits for (a camera or
    /// driver that hangs): the caller (the process's shutdown) goes on without it.
    public func stop(
        waitingAtMost limit: Duration,
        then done: @escaping (_ unanswered: (name: String, camera: String, since: Instant)?) -> Void
    ) {
        stop()
        var ended = false
        let timer = loop.schedule(after: limit) { [weak self] in
            guard !ended else { return }
            ended = true
            done(self?.session.current.map { ($0.name, $0.camera, $0.began) })
        }
        session.whenIdle { [loop] in
            guard !ended else { return }
            ended = true
            loop.cancel(timer)
            done(nil)
        }
    }

    /// Whether the camera is being switched, restarted or woken, or a command hangs: a
    /// switch asked for meanwhile is refused.
    public var isCameraBusy: Bool { isOpening || session.isBusy }

    /// The camera command that missed its deadline and has not answered yet, with the
    /// camera's model and when it began (nil: the camera answers).
    public var unansweredCommand: (name: String, camera: String, since: Instant)? { session.lateCommand }

    /// Switches to `camera`: the running one is stopped and closed, `camera` opened and
    /// started, each through the session (never on the loop). Throws at once while the
    /// camera is opening or busy; `completion` runs on the loop once `camera` streams, or
    /// with the error (then no camera runs).
    package func run(_ camera: CameraInfo, then completion: @escaping ((any Error)?) -> Void) throws {
        if isOpening {
            throw CameraError.failed("the camera is still opening: try again once `status` shows it")
        }
        if session.isBusy {
            throw CameraError.failed(
                "the camera is still answering an earlier command: try again once `status` shows it")
        }
        if let device, let running = current {
            onStreamStopping?("the camera was switched")
            watchdog.stop()
            focus.detach()
            perform(machine.streamStopped(failWaiting: false))
            retire(device, camera: running)
        }
        device = nil
        current = nil
        session.run("open", camera: camera.model) { [weak self] done in
            guard let self else { return done() }
            self.provider.open(id: camera.id) { [weak self] result in
                done()
                guard let self else { return }
                switch result {
                case .failure(let error): completion(error)
                case .success(let opened):
                    guard self.device == nil, self.current == nil else {
                        // Another camera was chosen meanwhile: nobody wants this one now.
                        return self.retire(opened, camera: camera)
                    }
                    self.startDevice(opened, camera: camera) { [weak self] error in
                        if error != nil, let self, self.device === opened {
                            self.retire(opened, camera: camera)
                            self.device = nil
                            self.current = nil
                        }
                        completion(error)
                    }
                }
            }
        }
    }

    /// Configures and starts `opened` through the session, then applies exposure and focus
    /// to it. It is the engine's camera from now on (frames from any other are dropped);
    /// `completion` runs on the loop once it streams, or with the error.
    func startDevice(
        _ opened: any CameraDevice, camera: CameraInfo, then completion: @escaping ((any Error)?) -> Void
    ) {
        standby.asleep = false
        device = opened
        current = camera
        let video = camera.videoSizes.isEmpty ? nil : videoStream
        let request = StreamRequest(stillSize: restoredStillSize(for: camera), video: video)
        checkRestoredExposure(on: camera)
        exposureLocked = false
        awbLocked = false
        let controls = exposure.startupControls(on: camera)
        let source = ObjectIdentifier(opened)
        session.run("start", camera: camera.model) { [weak self] done in
            opened.start(
                request, controls: controls,
                onFrame: { [weak self] frame in self?.frameArrived(frame, from: source) }
            ) { [weak self] result in
                done()
                // Stopped or switched meanwhile: the session stops and closes it after this.
                guard let self, self.device === opened else { return }
                switch result {
                case .failure(let error):
                    completion(error)
                case .success(let outcome):
                    self.configuration = outcome
                    self.framesReceived = 0
                    self.focus.attach(camera) { [weak self] controls in try self?.setControls(controls) }
                    self.applyRestoredCameraSettings(camera)
                    self.watchdog.start()
                    completion(nil)
                }
            }
        }
    }

    /// Stops and closes `device` through the session (a stop that hangs holds up only the
    /// session, and is reported at its deadline).
    func retire(_ device: any CameraDevice, camera: CameraInfo) {
        session.run("stop", camera: camera.model) { done in device.stop(then: done) }
        session.run("close", camera: camera.model) { done in device.close(then: done) }
    }

    /// A frame from `source`: the engine's camera's go on, any other camera's are given back.
    private func frameArrived(_ frame: any CameraFrame, from source: ObjectIdentifier) {
        guard let device, ObjectIdentifier(device) == source else { return frame.release() }
        frameArrived(frame)
    }
}
