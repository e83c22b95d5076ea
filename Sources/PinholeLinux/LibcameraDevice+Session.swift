// The libcamera camera's session thread: start, stop and close run there and answer on the loop, which never waits for them.

import PinholeCore

extension LibcameraDevice {
    /// Configures, sets the controls and starts on the session thread (libcamera's
    /// configure, buffer allocation and start can block on a driver that does not answer).
    func start(
        _ request: StreamRequest, controls: [String: ControlValue],
        onFrame: @escaping (any CameraFrame) -> Void,
        then completion: @escaping (Result<ConfigurationOutcome, any Error>) -> Void
    ) {
        let handler = LoopBound(onFrame, loop: loop)
        prepareStart()
        command(completion) { device in
            // Frames are delivered on the loop (`completed` runs there), where `handler` lives.
            try device.startNow(request, controls: controls) { frame in handler.value(frame) }
        }
    }

    /// Stops on the session thread: a stop that takes seconds (libcamera under CPU
    /// starvation) holds up only this camera's commands.
    func stop(then completion: @escaping () -> Void) {
        command({ (_: Result<Void, any Error>) in completion() }) { device in device.stop() }
    }

    /// Closes on the session thread; the provider forgets the camera on the loop afterwards.
    func close(then completion: @escaping () -> Void) {
        let closed = onClosed
        onClosed = nil
        command({ [weak self] (_: Result<Void, any Error>) in
            guard let self else { return completion() }
            self.onClosed = closed
            if self.isReleased { closed?() }
            completion()
        }) { device in device.close() }
    }

    /// Runs `work` on the session thread, the device handed over to it meanwhile, and
    /// `completion` on the loop with its result.
    private func command<T>(
        _ completion: @escaping (Result<T, any Error>) -> Void,
        _ work: @escaping (LibcameraDevice) throws -> T
    ) {
        commandsRunning += 1
        let loop = self.loop
        let job = SessionJob(device: self, work: work)
        let done = LoopBound(completion, loop: loop)
        let device = LoopBound(self, loop: loop)
        session.run {
            let result = job.run()
            loop.post {
                device.value.commandEnded()
                done.value(result.value)
            }
        }
    }

    /// A command ended: what the loop kept meanwhile happens now, in order.
    private func commandEnded() {
        commandsRunning -= 1
        guard commandsRunning == 0 else { return }
        let kept = deferred
        deferred.removeAll()
        for action in kept { action() }
    }
}

/// A command and the device it works on, carried to the session thread (which owns the
/// device while the command runs: the loop keeps its own calls until it ends).
private struct SessionJob<T>: @unchecked Sendable {
    let device: LibcameraDevice
    let work: (LibcameraDevice) throws -> T

    func run() -> SessionResult<T> { SessionResult(value: Result { try work(device) }) }
}

/// A command's result carried back to the loop.
private struct SessionResult<T>: @unchecked Sendable {
    let value: Result<T, any Error>
}
