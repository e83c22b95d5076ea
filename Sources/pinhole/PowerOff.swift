// Asks systemd to power the system off (after the shutdown chord, when the profile says so).

import Logging
import PinholeSystem

/// Runs `systemctl poweroff` and waits for it.
enum PowerOff {
    /// Requests a power-off; failures are logged (the appliance has already stopped safely).
    static func request(log: Logger) {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(["systemctl", "poweroff"])
        } catch {
            log.error("cannot run systemctl poweroff (\(error)): power off by hand")
            return
        }
        if outcome != .exited(0) {
            log.error(
                "systemctl poweroff failed (\(outcome)): check the polkit rule in board/")
        }
    }
}
