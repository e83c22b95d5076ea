// The simulated board's verb: button presses, tilt, scene, faults and waiting.

import PinholeAppliance

extension CommandCatalog {
    static let simDefinitions: [CommandDefinition] = [
        CommandDefinition(
            "sim",
            forms: [
                form(
                    "sim press BUTTON [--hold MS] [--bounce N]",
                    "simulated board: press shutter|half_press|switch|torch", "sim press shutter",
                    "sim press half_press --hold 500 --bounce 3"),
                form(
                    "sim press trigger [NAME]",
                    "simulated board: fire a trigger input (a PIR sensor; the board's first when no NAME)",
                    "sim press trigger", "sim press trigger pir"),
                form(
                    "sim hold BUTTON | sim release BUTTON", "simulated board: hold down, let go",
                    "sim hold shutter", "sim release shutter --bounce 2"),
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
            ], parse: parseSim)
    ]

    /// The longest `sim press --hold` (ten minutes).
    static let maxHoldMs = 600_000
    /// The most chatter transitions `--bounce` simulates.
    static let maxBounce = 50
    /// The longest `sim wait` (a day).
    static let maxWaitMs = 86_400_000

    @Sendable static func parseSim(_ words: inout CommandWords) throws -> ConsoleCommand {
        let verb = words.word()
        switch verb {
        case "press" where words[0] == "trigger":
            _ = words.word()
            let name = words.word()
            try words.finish(usage: "sim press trigger [NAME]")
            return .sim(.trigger(name))
        case "press":
            let button = try buttonArgument(words.word())
            let hold = try words.integer("--hold", in: 0...maxHoldMs) ?? 100
            let bounce = try words.integer("--bounce", in: 0...maxBounce) ?? 0
            try words.finish(usage: "sim press BUTTON [--hold MS] [--bounce N]")
            return .sim(.press(button, holdMs: hold, bounce: bounce))
        case "hold", "release":
            let button = try buttonArgument(words.word())
            let bounce = try words.integer("--bounce", in: 0...maxBounce) ?? 0
            try words.finish(usage: "sim \(verb!) BUTTON [--bounce N]")
            return .sim(verb == "hold" ? .hold(button, bounce: bounce) : .release(button, bounce: bounce))
        case "tilt":
            guard let word = words.word(), let degrees = Int(word) else {
                throw ConsoleError.usage("usage: sim tilt 0|90|180|270 [--bounce N]")
            }
            let bounce = try words.integer("--bounce", in: 0...maxBounce) ?? 0
            try words.finish(usage: "sim tilt 0|90|180|270 [--bounce N]")
            return .sim(.tilt(degrees: degrees, bounce: bounce))
        case "scene":
            switch words.word() {
            case "lux":
                guard let text = words.word(), let lux = Double(text), lux >= 0, lux <= 1_000_000 else {
                    throw ConsoleError.usage(
                        "usage: sim scene lux N (0 to 1000000; sunlight is about 120000)")
                }
                return .sim(.sceneLux(lux))
            case "change":
                return .sim(.sceneChange)
            default:
                throw ConsoleError.usage("usage: sim scene lux N | sim scene change")
            }
        case "fault":
            let names = SimFault.allCases.map(\.rawValue).joined(separator: " | ")
            guard let name = words.word() else { throw ConsoleError.usage("usage: sim fault \(names)") }
            guard let fault = SimFault(rawValue: name) else {
                throw ConsoleError.usage("unknown fault '\(name)': \(names)")
            }
            return .sim(.fault(fault))
        case "wait":
            guard let text = words.word(), let ms = Int(text), (0...maxWaitMs).contains(ms) else {
                throw ConsoleError.usage("usage: sim wait MS (0 to \(maxWaitMs))")
            }
            return .sim(.wait(ms: ms))
        default:
            throw ConsoleError.usage("usage: sim press|hold|release|tilt|scene|fault|wait … (type help)")
        }
    }

    private static func buttonArgument(_ word: String?) throws -> ButtonFunction {
        guard let word, let button = ButtonFunction(rawValue: word.replacingUnderscoreAliases()) else {
            throw ConsoleError.usage(
                "unknown button '\(word ?? "")': shutter, half_press, switch, torch, tilt_a or tilt_b")
        }
        return button
    }
}
