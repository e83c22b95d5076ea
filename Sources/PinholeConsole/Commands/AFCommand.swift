// `af`: the autofocus mode, point, range and speed, and a scan now.

import PinholeAppliance
import PinholeCapture

/// `af mode MODE` (also `af MODE`), `af point X Y`, `af trigger`, `af range R`, `af speed S`.
public enum AFCommand: ConsoleCommand {
    /// The AF mode.
    case mode(AutofocusMode)
    /// The AF point in the upright picture.
    case point(x: Double, y: Double)
    /// Focus now; answers with the state.
    case trigger
    /// The AF search range.
    case range(AutofocusRange)
    /// The AF speed.
    case speed(AutofocusSpeed)

    /// AF mode, range and speed are saved and restored at start: they need the PIN. The AF
    /// point and a scan last only while the camera runs: open.
    public var access: CommandAccess {
        switch self {
        case .mode, .range, .speed: return .pin
        case .point, .trigger: return .open
        }
    }

    /// The `af` verb.
    public static let definition = CommandDefinition(
        "af", group: .camera,
        forms: [
            form("af mode manual|auto|continuous", "autofocus mode", "af mode auto", "af continuous"),
            form(
                "af point X Y", "autofocus point in the upright picture (0…1, 0 0 is the top left)",
                "af point 0.5 0.5"),
            form("af trigger [--json]", "focus now; answers with the state", "af trigger"),
            form("af range normal|macro|full", "autofocus search range", "af range macro"),
            form("af speed normal|fast", "autofocus speed", "af speed fast"),
        ], parse: parse)

    @Sendable static func parse(_ words: inout CommandWords) throws -> any ConsoleCommand {
        let usage =
            "usage: af mode manual|auto|continuous | af point X Y | af trigger | af range normal|macro|full"
            + " | af speed normal|fast"
        if let mode = words.single(AutofocusMode.init(rawValue:)) { return AFCommand.mode(mode) }
        switch words[0] {
        case "mode":
            guard words.count == 2, let mode = AutofocusMode(rawValue: words[1]!) else {
                throw ConsoleError.usage("usage: af mode manual|auto|continuous")
            }
            return AFCommand.mode(mode)
        case "point":
            guard words.count == 3, let x = Double(words[1]!), let y = Double(words[2]!) else {
                throw ConsoleError.usage("usage: af point X Y (normalized 0…1, 0 0 is the top left)")
            }
            return AFCommand.point(x: x, y: y)
        case "trigger":
            try words.expect(words.count == 1, "usage: af trigger")
            return AFCommand.trigger
        case "range":
            guard words.count == 2, let range = AutofocusRange(rawValue: words[1]!) else {
                throw ConsoleError.usage("usage: af range normal|macro|full")
            }
            return AFCommand.range(range)
        case "speed":
            guard words.count == 2, let speed = AutofocusSpeed(rawValue: words[1]!) else {
                throw ConsoleError.usage("usage: af speed normal|fast")
            }
            return AFCommand.speed(speed)
        default:
            throw ConsoleError.usage(usage)
        }
    }

    /// Sets the focus (checked against what the camera reports), or focuses now.
    public func run(on console: LineModeConsole, json: Bool, reply: @escaping CommandReply) throws {
        let engine = console.appliance.engine
        let focus = engine.focus
        switch self {
        case .mode(let mode):
            try focus.setMode(mode)
            reply(.success("ok af mode \(mode.rawValue)"))
        case .point(let x, let y):
            try engine.setAFPoint(x: x, y: y)
            reply(.success("ok af point \(x) \(y)"))
        case .trigger:
            try focus.trigger { state in
                let lens = focus.lensPosition
                if json {
                    reply(.success(jsonLine(AFAnswer(state: state.rawValue, lensPosition: lens))))
                } else {
                    let where_ = lens.map { " lens \(Self.format($0))" } ?? ""
                    reply(.success("ok af \(state.rawValue)\(where_)"))
                }
            }
        case .range(let range):
            try focus.setRange(range)
            reply(.success("ok af range \(range.rawValue)"))
        case .speed(let speed):
            try focus.setSpeed(speed)
            reply(.success("ok af speed \(speed.rawValue)"))
        }
    }

    /// A lens position with at most three decimals.
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

extension AFCommand {
    /// The autofocus mode and point on the Camera page.
    public static let menuEntries = [
        MenuEntry(.camera, at: 30) { menu in
            MenuItem(
                "AF mode", value: menu.snapshot.status.map { "\($0.afMode) (\($0.afState))" } ?? "-",
                action: .ask(Prompt("AF mode: manual, auto or continuous", .word(before: ["af", "mode"]))))
        },
        MenuEntry(.camera, at: 40) { _ in
            MenuItem(
                "AF point", value: "x y from 0 to 1",
                action: .ask(
                    Prompt(
                        "AF point: x y (0…1, 0.5 0.5 is the centre)", .words(before: ["af", "point"]),
                        initial: "0.5 0.5")))
        },
    ]
}
