// The simulated camera's session: starts, stops and closes in order, never blocking the loop; a hanging stop answers late.

import PinholeCore

extension SimulatedCamera {
    /// Configures, sets the controls and starts, after any command under way.
    public func start(
        _ request: StreamRequest, controls: [String: ControlValue],
        onFrame: @escaping (any CameraFrame) -> Void,
        then completion: @escaping (Result<ConfigurationOutcome, any Error>) -> Void
    ) {
        session("start") { done in
            completion(Result { try self.startNow(request, controls: controls, onFrame: onFrame) })
            done()
        }
    }

    /// Stops: frames end at once; the stop answers once it returns, `SimWorld.stopHangs` later
    /// for a camera whose stop hangs (the loop runs meanwhile, as the session thread lets it).
    public func stop(then completion: @escaping () -> Void) {
        session("stop") { done in
            self.halt()
            let finish = {
                completion()
                done()
            }
            if let hang = self.world.stopHangs[self.spec.id], hang > .zero {
                _ = self.loop.schedule(after: hang, finish)
            } else {
                finish()
            }
        }
    }

    /// Closes, after any command under way.
    public func close(then completion: @escaping () -> Void) {
        session("close") { done in
            self.markClosed()
            completion()
            done()
        }
    }

    /// Whether a command of the session is under way (a hanging stop).
    public var isSessionBusy: Bool { sessionBusy }

    /// Runs `command` now, or after the one under way: one command at a time, in order, as a
    /// session thread runs them.
    private func session(_ name: String, _ command: @escaping (@escaping () -> Void) -> Void) {
        let run = { [self] in
            sessionBusy = true
            sessionCommands.append(name)
            command { [self] in
                sessionBusy = false
                if !sessionWaiting.isEmpty { sessionWaiting.removeFirst()() }
            }
        }
        if sessionBusy { sessionWaiting.append(run) } else { run() }
    }
}
