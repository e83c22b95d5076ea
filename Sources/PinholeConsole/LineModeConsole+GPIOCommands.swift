// Line-mode `gpio status [--json]`: every input and output with its current state.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func gpioCommand(json: Bool, reply: @escaping (Result<String, Error>) -> Void) throws {
        let status = appliance.gpioStatus()
        if json {
            reply(.success(jsonLine(status)))
            return
        }
        let inputs = status.inputs.map { input in
            "\(input.function) \(input.line) \(input.pressed ? "pressed" : "released")"
        }
        let outputs = status.outputs.map {
            "\($0.function) \($0.line) \($0.on ? "on" : "off") (\($0.showing))"
        }
        var parts = [
            "inputs " + inputs.joined(separator: ", "), "outputs " + outputs.joined(separator: ", "),
        ]
        if let tilt = status.tilt { parts.append("tilt \(tilt.rotation)°") }
        reply(.success("ok " + parts.joined(separator: "; ")))
    }
}
