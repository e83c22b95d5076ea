// `sim press trigger [NAME]`: fire a simulated trigger input and answer once its photos are saved.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func triggerCommand(
        _ name: String?, simulation: SimulationControl, reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        let stable = try simulation.fireTrigger(name)
        let trigger = appliance.board.triggers.first { name == nil || $0.name == name }
        let shots = trigger.map { $0.interval * ($0.shots - 1) } ?? .zero
        let debounce = trigger?.debounce ?? .zero
        afterQuiet(from: max(stable, appliance.loop.now + debounce + shots)) { [weak self] in
            let saved = self?.takeEventsDuringCommand() ?? []
            reply(
                .success(
                    "ok triggered \(trigger?.name ?? "?")"
                        + (saved.isEmpty ? "" : "; " + saved.joined(separator: "; "))))
        }
    }
}
