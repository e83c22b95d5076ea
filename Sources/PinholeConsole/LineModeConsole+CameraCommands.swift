// Line-mode commands for focus, exposure, white balance and flash.

import PinholeAppliance
import PinholeCore
import PinholeImaging

extension LineModeConsole {
    // swiftlint:disable:next cyclomatic_complexity
    func cameraControlCommand(
        _ command: String, _ args: [String], json: Bool,
        reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        let engine = appliance.engine
        switch command {
        case "lens":
            guard args.count == 1, let dioptres = Double(args[0]) else {
                throw ConsoleError.usage("usage: lens DIOPTRES (e.g. lens 2 for 0.5 m, lens 0 for infinity)")
            }
            try engine.focus.setLens(dioptres)
            reply(.success("ok lens \(dioptres)"))
        case "af":
            try afCommand(args, json: json, reply: reply)
        case "exposure":
            switch args.first {
            case "auto":
                try expect(args.count == 1, "usage: exposure auto")
                try engine.setExposure(.auto)
                reply(.success("ok exposure auto"))
            case "manual":
                guard args.count == 3, let time = Int(args[1]), time > 0, let gain = Double(args[2]) else {
                    throw ConsoleError.usage(
                        "usage: exposure manual TIME_US GAIN (e.g. exposure manual 10000 2)")
                }
                try engine.setExposure(.manual(time: .microseconds(time), gain: gain))
                reply(.success("ok exposure manual \(time) us gain \(gain)"))
            default:
                throw ConsoleError.usage("usage: exposure auto | exposure manual TIME_US GAIN")
            }
        case "ev":
            guard args.count == 1, let stops = Double(args[0]) else {
                throw ConsoleError.usage("usage: ev STOPS")
            }
            try engine.setEV(stops)
            reply(.success("ok ev \(stops)"))
        case "metering":
            let word = args.first == "center" ? "centre" : args.first ?? ""
            guard args.count == 1, let mode = MeteringMode(rawValue: word) else {
                throw ConsoleError.usage("usage: metering centre|spot|matrix")
            }
            try engine.setMetering(mode)
            reply(.success("ok metering \(mode.rawValue)"))
        case "awb":
            guard args.count == 1, let mode = WhiteBalanceMode(rawValue: args[0]) else {
                let modes = WhiteBalanceMode.allCases.map(\.rawValue).joined(separator: "|")
                throw ConsoleError.usage("usage: awb \(modes)")
            }
            try engine.setWhiteBalance(mode)
            reply(.success("ok awb \(mode.rawValue)"))
        case "flash":
            guard args.count == 1, let mode = FlashMode(rawValue: args[0]) else {
                throw ConsoleError.usage("usage: flash off|on|auto")
            }
            try engine.setFlashMode(mode)
            reply(.success("ok flash \(mode.rawValue)"))
        default:
            throw ConsoleError.usage("unknown camera control '\(command)'")
        }
    }

    private func afCommand(_ args: [String], json: Bool, reply: @escaping (Result<String, Error>) -> Void)
        throws
    {
        let focus = appliance.engine.focus
        let usage =
            "usage: af mode manual|auto|continuous | af point X Y | af trigger | af range normal|macro|full"
            + " | af speed normal|fast"
        if let first = args.first, let mode = AutofocusMode(rawValue: first), args.count == 1 {
            // `af continuous` is short for `af mode continuous`.
            return try afCommand(["mode", mode.rawValue], json: json, reply: reply)
        }
        switch args.first {
        case "mode":
            guard args.count == 2, let mode = AutofocusMode(rawValue: args[1]) else {
                throw ConsoleError.usage("usage: af mode manual|auto|continuous")
            }
            try focus.setMode(mode)
            reply(.success("ok af mode \(mode.rawValue)"))
        case "point":
            guard args.count == 3, let x = Double(args[1]), let y = Double(args[2]) else {
                throw ConsoleError.usage("usage: af point X Y (normalized 0…1, 0 0 is the top left)")
            }
            try focus.setPoint(x: x, y: y)
            reply(.success("ok af point \(x) \(y)"))
        case "trigger":
            try expect(args.count == 1, "usage: af trigger")
            try focus.trigger { state in
                let lens = focus.lensPosition
                if json {
                    reply(.success(jsonLine(AFAnswer(state: state.rawValue, lensPosition: lens))))
                } else {
                    let where_ = lens.map { " lens \(Self.format($0))" } ?? ""
                    reply(.success("ok af \(state.rawValue)\(where_)"))
                }
            }
        case "range":
            guard args.count == 2, let range = AutofocusRange(rawValue: args[1]) else {
                throw ConsoleError.usage("usage: af range normal|macro|full")
            }
            try focus.setRange(range)
            reply(.success("ok af range \(range.rawValue)"))
        case "speed":
            guard args.count == 2, let speed = AutofocusSpeed(rawValue: args[1]) else {
                throw ConsoleError.usage("usage: af speed normal|fast")
            }
            try focus.setSpeed(speed)
            reply(.success("ok af speed \(speed.rawValue)"))
        default:
            throw ConsoleError.usage(usage)
        }
    }

    private func expect(_ condition: Bool, _ usage: String) throws {
        guard condition else { throw ConsoleError.usage(usage) }
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return String(rounded)
    }
}

/// The `af trigger --json` answer.
struct AFAnswer: Encodable {
    var state: String
    var lensPosition: Double?
}
