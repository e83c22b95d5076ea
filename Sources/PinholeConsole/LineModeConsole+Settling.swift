// When a simulated press, hold, release, tilt or trigger has been dealt with: answers wait for the appliance to settle.

import PinholeAppliance
import PinholeBoard
import PinholeCore

extension LineModeConsole {
    /// How long the kernel may hold back the last edge of these buttons (its debounce).
    func kernelDelay(_ buttons: [ButtonFunction]) -> Duration {
        buttons.compactMap { appliance.board.buttons[$0]?.inputConfig.debounce }.max() ?? .zero
    }

    /// When chatter of `bounce` transitions started now has been seen through the kernel's
    /// debounce and reached the appliance (which then counts as busy until it settles).
    func settled(_ buttons: [ButtonFunction], bounce: Int) -> Instant {
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

extension String {
    /// Accepts "half-press" for "half_press".
    func replacingUnderscoreAliases() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}
