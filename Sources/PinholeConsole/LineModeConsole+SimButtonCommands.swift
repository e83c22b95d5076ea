// Line-mode commands that press, hold and release the simulated board's buttons.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func simButtonCommand(
        _ verb: String, options: inout OptionReader, simulation: SimulationControl,
        reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        switch verb {
        case "press":
            let button = try buttonArgument(options.word())
            let hold = try options.integer("--hold") ?? 100
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim press BUTTON [--hold MS] [--bounce N]")
            let stable = try simulation.press(button, hold: .milliseconds(hold), bounce: bounce)
            afterQuiet(from: stable + kernelDelay([button])) { [weak self] in
                let saved = self?.eventsDuringCommand ?? []
                let suffix = saved.isEmpty ? "" : "; " + saved.joined(separator: "; ")
                reply(.success("ok pressed \(button.rawValue) held \(hold) ms bounce \(bounce)\(suffix)"))
            }
        case "hold":
            let button = try buttonArgument(options.word())
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim hold BUTTON [--bounce N]")
            try simulation.hold(button, bounce: bounce)
            afterQuiet(from: settled([button], bounce: bounce)) {
                reply(.success("ok holding \(button.rawValue)"))
            }
        case "release":
            let button = try buttonArgument(options.word())
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim release BUTTON [--bounce N]")
            try simulation.release(button, bounce: bounce)
            afterQuiet(from: settled([button], bounce: bounce)) { [weak self] in
                let saved = self?.eventsDuringCommand ?? []
                reply(
                    .success(
                        "ok released \(button.rawValue)"
                            + (saved.isEmpty ? "" : "; " + saved.joined(separator: "; "))))
            }
        case "tilt":
            guard let word = options.word(), let degrees = Int(word) else {
                throw ConsoleError.usage("usage: sim tilt 0|90|180|270 [--bounce N]")
            }
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim tilt 0|90|180|270 [--bounce N]")
            try simulation.tilt(degrees: degrees, bounce: bounce)
            afterQuiet(from: settled([.tiltA, .tiltB], bounce: bounce)) { [weak self] in
                guard let self else { return }
                let rotation = self.appliance.tilt?.rotation ?? 0
                reply(
                    .success("ok tilt \(rotation) orientation \(self.appliance.currentOrientation.rawValue)"))
            }
        default:
            throw ConsoleError.unavailable("sim \(verb) is not available in this build yet")
        }
    }

    private func buttonArgument(_ word: String?) throws -> ButtonFunction {
        guard let word, let button = ButtonFunction(rawValue: word.replacingUnderscoreAliases()) else {
            throw ConsoleError.usage(
                "unknown button '\(word ?? "")': shutter, half_press, switch, torch, tilt_a or tilt_b")
        }
        return button
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
        if appliance.isBusy {
            appliance.loop.schedule(after: .milliseconds(5)) { [weak self] in self?.waitIdle(done) }
        } else {
            done()
        }
    }
}
