// Line-mode timelapse commands: start, stop, status.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func timelapseCommand(
        _ command: ConsoleCommand, json: Bool, reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        guard let timelapse = appliance.timelapse else {
            throw ConsoleError.unavailable("timelapse is not available on this appliance")
        }
        let status: TimelapseStatus
        do {
            switch command {
            case .timelapseStart(let plan): status = try timelapse.start(plan)
            case .timelapseStop: status = try timelapse.stop()
            default: status = timelapse.status()
            }
        } catch let error as TimelapseError {
            throw ConsoleError.usage("\(error)")
        }
        reply(.success(json ? jsonLine(status) : "ok " + status.line))
    }
}
