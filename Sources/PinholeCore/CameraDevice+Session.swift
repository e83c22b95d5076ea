// The camera commands that never block the loop, by default done at once for cameras that cannot block.

extension CameraDevice {
    /// Configures, sets the controls and starts at once (a camera that cannot block).
    public func start(
        _ request: StreamRequest, controls: [String: ControlValue],
        onFrame: @escaping (any CameraFrame) -> Void,
        then completion: @escaping (Result<ConfigurationOutcome, any Error>) -> Void
    ) {
        completion(Result { try startNow(request, controls: controls, onFrame: onFrame) })
    }

    /// Stops at once.
    public func stop(then completion: @escaping () -> Void) {
        stop()
        completion()
    }

    /// Closes at once.
    public func close(then completion: @escaping () -> Void) {
        close()
        completion()
    }

    /// The blocking form of `start(_:controls:onFrame:then:)`: configure, controls (a control
    /// the camera refuses is left out: the engine reports what it could not restore), start.
    public func startNow(
        _ request: StreamRequest, controls: [String: ControlValue],
        onFrame: @escaping (any CameraFrame) -> Void
    ) throws -> ConfigurationOutcome {
        let outcome = try configure(request)
        if !controls.isEmpty { try? setControls(controls) }
        try start(onFrame: onFrame)
        return outcome
    }
}
