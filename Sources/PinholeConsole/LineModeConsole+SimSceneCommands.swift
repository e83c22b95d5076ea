// Line-mode commands that script the simulated scene and inject faults.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func simSceneCommand(
        _ command: SimCommand, simulation: SimulationControl, reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        switch command {
        case .sceneLux(let lux):
            simulation.setLux(lux)
            reply(.success("ok scene lux \(lux)"))
        case .sceneChange:
            simulation.changeScene()
            reply(.success("ok scene changed"))
        case .fault(let fault):
            try simulation.injectFault(fault)
            reply(.success("ok fault \(fault.rawValue)"))
        default:
            preconditionFailure("not a scene command: \(command)")
        }
    }
}
