// `sim …`: the simulated board's buttons, tilt, triggers, scene, faults and time.

import PinholeAppliance
import PinholeBoard
import PinholeCore

/// The simulated board's commands: each answers once what it set off has finished.
public enum SimCommand: ConsoleCommand {
    /// Press and release a button.
    case press(ButtonFunction, holdMs: Int, bounce: Int)
    /// Hold a button down.
    case hold(ButtonFunction, bounce: Int)
    /// Let a held button go.
    case release(ButtonFunction, bounce: Int)
    /// Turn the body (tilt switches).
    case tilt(degrees: Int, bounce: Int)
    /// Set the scene's light level.
    case sceneLux(Double)
    /// A new subject.
    case sceneChange
    /// Inject a fault.
    case fault(SimFault)
    /// Let time pass.
    case wait(ms: Int)
    /// Fire a trigger input (the first one when no name is given).
    case trigger(String?)

    /// The longest `sim press --hold` (ten minutes).
    static let maxHoldMs = 600_000
    /// The most chatter transitions `--bounce` simulates.
    static let maxBounce = 50
    /// The longest `sim wait` (a day).
    package static let maxWaitMs = 86_400_000

    /// The `sim` verb.
    public static let definition = CommandDefinition(
        "sim", group: .appliance,
        forms: [
            form(
                "sim press BUTTON [--hold MS] [--bounce N]",
                "simulated board: press shutter|half_press|switch|torch|record", "sim press shutter",
                "sim press half_press --hold 500 --bounce 3"),
            form(
                "sim press trigger [NAME]",
                "simulated board: fire a trigger input (a PIR sensor; the board's first when no NAME)",
                "sim press trigger", "sim press trigger pir"),
            form(
                "sim hold BUTTON | sim release BUTTON",
                "simulated board: hold down, let go (the mode switch: hold mode = video, release mode = photo)",
                "sim hold shutter", "sim release shutter --bounce 2", "sim hold mode"),
            form(
                "sim tilt DEGREES [--bounce N]",
                "simulated board: turn the body 0, 90, 180 or 270 degrees (tilt sensor)", "sim tilt 90"),
            form(
                "sim scene lux N | sim scene change", "simulated board: light level, new subject",
                "sim scene lux 20", "sim scene change"),
            form(
                "sim fault " + SimFault.allCases.map(\.rawValue).joined(separator: "|"),
                "simulated board: the camera stops sending frames, fails to start, starts again",
                "sim fault camera-timeout", "sim fault camera-dead", "sim fault camera-alive"),
            form("sim wait MS", "let MS milliseconds pass", "sim wait 100"),
        ], parse: parse)

    @Sendable static func parse(_ words: inout CommandWords) throws -> any ConsoleCommand {
        let verb = words.word()
        switch verb {
        case "press" where words[0] == "trigger":
            _ = words.word()
            let name = words.word()
            try words.finish(usage: "sim press trigger [NAME]")
            return SimCommand.trigger(name)
        case "press":
            let button = try buttonArgument(words.word())
            let hold = try words.integer("--hold", in: 0...maxHoldMs) ?? 100
            let bounce = try words.integer("--bounce", in: 0...maxBounce) ?? 0
            try words.finish(usage: "sim press BUTTON [--hold MS] [--bounce N]")
            return SimCommand.press(button, holdMs: hold, bounce: bounce)
        case "hold", "release":
            let button = try buttonArgument(words.word())
            let bounce = try words.integer("--bounce", in: 0...maxBounce) ?? 0
            try words.finish(usage: "sim \(verb!) BUTTON [--bounce N]")
            return verb == "hold"
                ? SimCommand.hold(button, bounce: bounce) : SimCommand.release(button, bounce: bounce)
        case "tilt":
            guard let word = words.word(), let degrees = Int(word) else {
                throw ConsoleError.usage("usage: sim tilt 0|90|180|270 [--bounce N]")
            }
            let bounce = try words.integer("--bounce", in: 0...maxBounce) ?? 0
            try words.finish(usage: "sim tilt 0|90|180|270 [--bounce N]")
            return SimCommand.tilt(degrees: degrees, bounce: bounce)
        case "scene":
            switch words.word() {
            case "lux":
                guard let text = words.word(), let lux = Double(text), lux >= 0, lux <= 1_000_000 else {
                    throw ConsoleError.usage(
                        "usage: sim scene lux N (0 to 1000000; sunlight is about 120000)")
                }
                return SimCommand.sceneLux(lux)
            case "change":
                return SimCommand.sceneChange
            default:
                throw ConsoleError.usage("usage: sim scene lux N | sim scene change")
            }
        case "fault":
            let names = SimFault.allCases.map(\.rawValue).joined(separator: " | ")
            guard let name = words.word() else { throw ConsoleError.usage("usage: sim fault \(names)") }
            guard let fault = SimFault(rawValue: name) else {
                throw ConsoleError.usage("unknown fault '\(name)': \(names)")
            }
            return SimCommand.fault(fault)
        case "wait":
            guard let text = words.word(), let ms = Int(text), (0...maxWaitMs).contains(ms) else {
                throw ConsoleError.usage("usage: sim wait MS (0 to \(maxWaitMs))")
            }
            return SimCommand.wait(ms: ms)
        default:
            throw ConsoleError.usage("usage: sim press|hold|release|tilt|scene|fault|wait … (type help)")
        }
    }

    private static func buttonArgument(_ word: String?) throws -> ButtonFunction {
        guard let word, let button = ButtonFunction(rawValue: word.replacingUnderscoreAliases()) else {
            throw ConsoleError.usage(
                "unknown button '\(word ?? "")': "
                    + ButtonFunction.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return button
    }

    /// Acts on the simulated board; answers once the appliance has dealt with it (a press:
    /// released, and whatever it set off finished), with the events it caused.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        guard let simulation = console.simulation else {
            throw ConsoleError.unavailable("sim commands need the simulated board (pinhole run --board sim)")
        }
        let appliance = console.appliance
        switch self {
        case .press(let button, let hold, let bounce):
            let stable = try simulation.press(button, hold: .milliseconds(hold), bounce: bounce)
            console.afterQuiet(from: stable + console.kernelDelay([button])) { [weak console] in
                let saved = console?.takeEventsDuringCommand() ?? []
                let suffix = saved.isEmpty ? "" : "; " + saved.joined(separator: "; ")
                reply(.success("ok pressed \(button.rawValue) held \(hold) ms bounce \(bounce)\(suffix)"))
            }
        case .hold(let button, let bounce):
            try simulation.hold(button, bounce: bounce)
            console.afterQuiet(from: console.settled([button], bounce: bounce)) {
                reply(.success("ok holding \(button.rawValue)"))
            }
        case .release(let button, let bounce):
            try simulation.release(button, bounce: bounce)
            console.afterQuiet(from: console.settled([button], bounce: bounce)) { [weak console] in
                let saved = console?.takeEventsDuringCommand() ?? []
                reply(
                    .success(
                        "ok released \(button.rawValue)"
                            + (saved.isEmpty ? "" : "; " + saved.joined(separator: "; "))))
            }
        case .tilt(let degrees, let bounce):
            try simulation.tilt(degrees: degrees, bounce: bounce)
            console.afterQuiet(from: console.settled([.tiltA, .tiltB], bounce: bounce)) { [weak appliance] in
                guard let appliance else { return }
                let rotation = appliance.tilt?.rotation ?? 0
                reply(.success("ok tilt \(rotation) orientation \(appliance.currentOrientation.rawValue)"))
            }
        case .sceneLux(let lux):
            simulation.setLux(lux)
            reply(.success("ok scene lux \(lux)"))
        case .sceneChange:
            simulation.changeScene()
            reply(.success("ok scene changed"))
        case .fault(let fault):
            try simulation.injectFault(fault)
            reply(.success("ok fault \(fault.rawValue)"))
        case .wait(let ms):
            appliance.loop.schedule(after: .milliseconds(ms)) { reply(.success("ok waited \(ms) ms")) }
        case .trigger(let name):
            let stable = try simulation.fireTrigger(name)
            let trigger = appliance.board.triggers.first { name == nil || $0.name == name }
            let shots = trigger.map { $0.interval * ($0.shots - 1) } ?? .zero
            let debounce = trigger?.debounce ?? .zero
            console.afterQuiet(from: max(stable, appliance.loop.now + debounce + shots)) { [weak console] in
                let saved = console?.takeEventsDuringCommand() ?? []
                reply(
                    .success(
                        "ok triggered \(trigger?.name ?? "?")"
                            + (saved.isEmpty ? "" : "; " + saved.joined(separator: "; "))))
            }
        }
    }
}

/// Faults the simulated board can inject.
public enum SimFault: String, Hashable, Sendable, CaseIterable {
    /// The camera stops sending frames (the watchdog restarts it).
    case cameraTimeout = "camera-timeout"
    /// The cameras fail to start until `camera-alive`.
    case cameraDead = "camera-dead"
    /// The cameras start again.
    case cameraAlive = "camera-alive"
}
