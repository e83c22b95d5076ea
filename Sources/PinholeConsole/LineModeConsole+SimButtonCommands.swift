// Line-mode commands that press, hold and release the simulated board's buttons.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func simButtonCommand(_ verb: String, options: inout OptionReader, simulation: SimulationControl,
                          reply: @escaping (Result<String, Error>) -> Void) throws {
        switch verb {
        case "press":
            let button = try buttonArgument(options.word())
            let hold = try options.integer("--hold") ?? 100
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim press BUTTON [--hold MS] [--bounce N]")
            let stable = try simulation.press(button, hold: .milliseconds(hold), bounce: bounce)
            afterQuiet(from: stable) { [weak self] in
                let saved = self?.eventsDuringCommand ?? []
                let suffix = saved.isEmpty ? "" : "; " + saved.joined(separator: "; ")
                reply(.success("ok pressed \(button.rawValue) held \(hold) ms bounce \(bounce)\(suffix)"))
            }
        case "hold":
            let button = try buttonArgument(options.word())
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim hold BUTTON [--bounce N]")
            try simulation.hold(button, bounce: bounce)
            afterQuiet(from: appliance.loop.now + .milliseconds(20)) {
                reply(.success("ok holding \(button.rawValue)"))
            }
        case "release":
            let button = try buttonArgument(options.word())
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim release BUTTON [--bounce N]")
            try simulation.release(button, bounce: bounce)
            afterQuiet(from: appliance.loop.now + .milliseconds(20)) { [weak self] in
                let saved = self?.eventsDuringCommand ?? []
                reply(.success("ok released \(button.rawValue)" + (saved.isEmpty ? "" : "; " + saved.joined(separator: "; "))))
            }
        default:
            throw ConsoleError.unavailable("sim \(verb) is not available in this build yet")
        }
    }

    private func buttonArgument(_ word: String?) throws -> ButtonFunction {
        guard let word, let button = ButtonFunction(rawValue: word.replacingUnderscoreAliases()) else {
            throw ConsoleError.usage("unknown button '\(word ?? "")': shutter, half_press, switch or torch")
        }
        return button
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

