// Line-mode commands for focus, exposure, white balance and flash.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    func cameraControlCommand(_ command: String, _ args: [String], json: Bool,
                              reply: @escaping (Result<String, Error>) -> Void) throws {
        switch command {
        case "lens":
            guard args.count == 1, let dioptres = Double(args[0]) else {
                throw ConsoleError.usage("usage: lens DIOPTRES (e.g. lens 2 for 0.5 m, lens 0 for infinity)")
            }
            try appliance.engine.setControls(["LensPosition": .double(dioptres)])
            reply(.success("ok lens \(dioptres)"))
        case "exposure":
            switch args.first {
            case "auto":
                try appliance.engine.setControls(["AeEnable": .bool(true)])
                reply(.success("ok exposure auto"))
            case "manual":
                guard args.count == 3, let time = Int(args[1]), let gain = Double(args[2]) else {
                    throw ConsoleError.usage("usage: exposure manual TIME_US GAIN")
                }
                try appliance.engine.setControls(["AeEnable": .bool(false), "ExposureTime": .int(time),
                                                  "AnalogueGain": .double(gain)])
                reply(.success("ok exposure manual \(time) us gain \(gain)"))
            default:
                throw ConsoleError.usage("usage: exposure auto | exposure manual TIME_US GAIN")
            }
        case "ev":
            guard args.count == 1, let stops = Double(args[0]) else { throw ConsoleError.usage("usage: ev STOPS") }
            try appliance.engine.setControls(["ExposureValue": .double(stops)])
            reply(.success("ok ev \(stops)"))
        default:
            throw ConsoleError.unavailable("'\(command)' is not available in this build yet")
        }
    }
}
