// Line-mode commands that script the simulated scene and inject faults.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func simSceneCommand(
        _ verb: String, options: inout OptionReader, simulation: SimulationControl,
        reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        switch verb {
        case "scene":
            switch options.word() {
            case "lux":
                guard let text = options.word(), let lux = Double(text), lux >= 0 else {
                    throw ConsoleError.usage("usage: sim scene lux N (N ≥ 0)")
                }
                simulation.setLux(lux)
                reply(.success("ok scene lux \(lux)"))
            case "change":
                simulation.changeScene()
                reply(.success("ok scene changed"))
            default:
                throw ConsoleError.usage("usage: sim scene lux N | sim scene change")
            }
        default:
            guard let name = options.word() else {
                throw ConsoleError.usage("usage: sim fault camera-timeout")
            }
            try simulation.injectFault(name)
            reply(.success("ok fault \(name)"))
        }
    }
}
