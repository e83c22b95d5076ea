// Line-mode commands that press, hold and release the simulated board's buttons.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func simButtonCommand(
        _ command: SimCommand, simulation: SimulationControl, reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        switch command {
        case .press(let button, let hold, let bounce):
            let stable = try simulation.press(button, hold: .milliseconds(hold), bounce: bounce)
            afterQuiet(from: stable + kernelDelay([button])) { [weak self] in
                let saved = self?.takeEventsDuringCommand() ?? []
                let suffix = saved.isEmpty ? "" : "; " + saved.joined(separator: "; ")
                reply(.success("ok pressed \(button.rawValue) held \(hold) ms bounce \(bounce)\(suffix)"))
            }
        case .hold(let button, let bounce):
            try simulation.hold(button, bounce: bounce)
            afterQuiet(from: settled([button], bounce: bounce)) {
                reply(.success("ok holding \(button.rawValue)"))
            }
        case .release(let button, let bounce):
            try simulation.release(button, bounce: bounce)
            afterQuiet(from: settled([button], bounce: bounce)) { [weak self] in
                let saved = self?.takeEventsDuringCommand() ?? []
                reply(
                    .success(
                        "ok released \(button.rawValue)"
                            + (saved.isEmpty ? "" : "; " + saved.joined(separator: "; "))))
            }
        case .tilt(let degrees, let bounce):
            try simulation.tilt(degrees: degrees, bounce: bounce)
            afterQuiet(from: settled([.tiltA, .tiltB], bounce: bounce)) { [weak self] in
                guard let self else { return }
                let rotation = self.appliance.tilt?.rotation ?? 0
                reply(
                    .success("ok tilt \(rotation) orientation \(self.appliance.currentOrientation.rawValue)"))
            }
        default:
            preconditionFailure("not a button command: \(command)")
        }
    }

    /// How long the kernel may hold back the last edge of these buttons (its debounce).
    private func kernelDelay(_ buttons: [ButtonFunction]) -> Duration {
        buttons.compactMap { appliance.board.buttons[$0]?.inputConfig.debounce }.max() ?? .zero
    }

    /// When chatter of `bounce` transitions started now has been seen through the kernel's
    /// debounce and reached the appliance (which then counts as busy until it settles).
    private func settled(_ buttons: [ButtonFunction], bounce: Int) -> Instant {
        appliance.loop.now + .microseconds(Int64(400 * 2 * bounce)) + kernelDelay(buttons) + .milliseconds(5)
    }

    /// Runs `done` once `instant` has passed and the appliance is idle (no button settling,
    /// no capture waiting or being saved).
    func afterQuiet(from instant: Instant, _ done: @escaping () -> Void) {
        let loop = appliance.loop
        loop.schedule(at: instant + .milliseconds(1)) { [weak self] in self?.waitIdle(done) }
    }

    private func waitIdle(_ done: @escaping () -> Void) {
        // A held shutter bursts until it is let go: that is not waited for (the release that
        // ends it is the next command).
        if appliance.isBusy && !appliance.shutter.isBursting {
            appliance.loop.schedule(after: .milliseconds(5)) { [weak self] in self?.waitIdle(done) }
        } else {
            done()
        }
    }
}
