// Line-mode commands for focus, exposure, white balance and flash.

import PinholeAppliance
import PinholeCore
import PinholeImaging

extension LineModeConsole {
    // swiftlint:disable:next cyclomatic_complexity
    func cameraControlCommand(
        _ command: ConsoleCommand, json: Bool, reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        let engine = appliance.engine
        let focus = engine.focus
        switch command {
        case .lens(let dioptres):
            try focus.setLens(dioptres)
            reply(.success("ok lens \(dioptres)"))
        case .exposureAuto:
            try engine.setExposure(.auto)
            reply(.success("ok exposure auto"))
        case .exposureManual(let time, let gain):
            try engine.setExposure(.manual(time: .microseconds(time), gain: gain))
            reply(.success("ok exposure manual \(time) us gain \(gain)"))
        case .ev(let stops):
            try engine.setEV(stops)
            reply(.success("ok ev \(stops)"))
        case .metering(let mode):
            try engine.setMetering(mode)
            reply(.success("ok metering \(mode.rawValue)"))
        case .whiteBalance(let mode):
            try engine.setWhiteBalance(mode)
            reply(.success("ok awb \(mode.rawValue)"))
        case .flash(let mode):
            try engine.setFlashMode(mode)
            reply(.success("ok flash \(mode.rawValue)"))
        case .afMode(let mode):
            try focus.setMode(mode)
            reply(.success("ok af mode \(mode.rawValue)"))
        case .afPoint(let x, let y):
            try focus.setPoint(x: x, y: y)
            reply(.success("ok af point \(x) \(y)"))
        case .afTrigger:
            try focus.trigger { state in
                let lens = focus.lensPosition
                if json {
                    reply(.success(jsonLine(AFAnswer(state: state.rawValue, lensPosition: lens))))
                } else {
                    let where_ = lens.map { " lens \(Self.format($0))" } ?? ""
                    reply(.success("ok af \(state.rawValue)\(where_)"))
                }
            }
        case .afRange(let range):
            try focus.setRange(range)
            reply(.success("ok af range \(range.rawValue)"))
        case .afSpeed(let speed):
            try focus.setSpeed(speed)
            reply(.success("ok af speed \(speed.rawValue)"))
        default:
            preconditionFailure("not a camera control: \(command)")
        }
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
