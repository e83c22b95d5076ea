// Every console verb in one table: parsing lines into commands, and the help made from it.

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import PinholeAppliance
import PinholeCore
import PinholeImaging

/// The console language. `parse` turns a line (or words) into a `ConsoleInvocation`;
/// `help` and `helpJSON` are generated from the same definitions, and so is every usage
/// error. See `ConsoleCommand` for how to add a command.
public enum CommandCatalog {
    /// Parses one line of input; nil for a blank line.
    public static func parse(line: String) throws -> ConsoleInvocation? {
        let words = try tokenize(line)
        guard !words.isEmpty else { return nil }
        return try parse(words: words)
    }

    /// Parses words (the first is the verb). `--json` anywhere asks for a JSON answer; the
    /// `library` verb passes its words on untouched (its own language reads `--json`).
    /// With `options` false (a menu prompt's answer) `--json` is an ordinary word.
    public static func parse(words: [String], options: Bool = true) throws -> ConsoleInvocation {
        guard let verb = words.first else {
            throw ConsoleError.usage("empty command: type help for the list")
        }
        let json = options && words.contains("--json")
        guard let definition = definition(for: verb) else {
            throw ConsoleError.usage("unknown command '\(verb)': type help for the list")
        }
        if verb == "library" {
            return ConsoleInvocation(.library(Array(words.dropFirst())), json: json)
        }
        var rest = CommandWords(Array(words.dropFirst()).filter { !json || $0 != "--json" })
        return ConsoleInvocation(try definition.parse(&rest), json: json)
    }

    /// The definition of a verb or alias.
    public static func definition(for verb: String) -> CommandDefinition? {
        byVerb[verb]
    }

    private static let byVerb: [String: CommandDefinition] = {
        var table: [String: CommandDefinition] = [:]
        for definition in definitions {
            for name in [definition.verb] + definition.aliases { table[name] = definition }
        }
        return table
    }()

    /// Every form, in help order.
    public static var forms: [CommandDefinition.Form] { definitions.flatMap(\.forms) }

    /// The `help` answer.
    public static var help: String { "ok commands: " + forms.map(\.usage).joined(separator: " | ") }

    /// The `help --json` answer.
    public static var helpJSON: String {
        jsonLine(forms.map { ["command": $0.usage, "does": $0.summary] })
    }

    /// The verbs, in help order.
    public static let definitions: [CommandDefinition] =
        captureDefinitions + fieldDefinitions + controlDefinitions + systemDefinitions + simDefinitions
        + accessDefinitions
}

// MARK: - Capture and camera

extension CommandCatalog {
    static let captureDefinitions: [CommandDefinition] = [
        CommandDefinition(
            "capture",
            forms: [
                form("capture [--json]", "take a photo now; answers when it is saved", "capture"),
                form(
                    "capture --timer SECONDS", "self-timer: a photo after SECONDS (1-60)",
                    "capture --timer 10"),
                form("capture --burst N", "N photos in a row (2-20)", "capture --burst 3"),
            ]
        ) { words in
            let usage = "capture [--json] | capture --timer SECONDS | capture --burst N"
            let timer = try words.integer("--timer")
            let burst = try words.integer("--burst")
            try words.finish(usage: usage)
            if timer != nil && burst != nil {
                throw ConsoleError.usage("use --timer or --burst, not both: usage: \(usage)")
            }
            if let seconds = timer {
                guard (1...60).contains(seconds) else {
                    throw ConsoleError.usage("--timer takes 1 to 60 seconds")
                }
                return .capture(.timer(seconds: seconds))
            }
            if let count = burst {
                guard (2...20).contains(count) else {
                    throw ConsoleError.usage("--burst takes 2 to 20 photos")
                }
                return .capture(.burst(count: count))
            }
            return .capture(.now)
        },
        CommandDefinition(
            "camera",
            forms: [
                form("camera list [--json]", "cameras with their sizes and controls", "camera list"),
                form("camera switch", "switch to the next camera", "camera switch"),
                form("camera select ID", "switch to a camera by id or model", "camera select imx477"),
                form(
                    "camera size WxH", "still size: one the camera lists (camera list shows them)",
                    "camera size 2028x1520"),
            ]
        ) { words in
            let usage = "usage: camera list [--json] | camera switch | camera select ID | camera size WxH"
            switch (words[0], words.count) {
            case ("list", 1): return .cameraList
            case ("switch", 1): return .cameraSwitch
            case ("select", 2): return .cameraSelect(words[1]!)
            case ("select", _): throw ConsoleError.usage("usage: camera select ID")
            case ("size", 2):
                guard let size = PixelSize(text: words[1]!) else {
                    throw ConsoleError.usage("usage: camera size WxH (e.g. camera size 2028x1520)")
                }
                return .cameraSize(width: size.width, height: size.height)
            case ("size", _): throw ConsoleError.usage("usage: camera size WxH (e.g. camera size 2028x1520)")
            default: throw ConsoleError.usage(usage)
            }
        },
        CommandDefinition(
            "torch",
            forms: [form("torch on|off", "the torch LED (cameras with a torch)", "torch on", "torch off")]
        ) { words in
            guard words.count == 1, let on = ["on": true, "off": false][words[0]!] else {
                throw ConsoleError.usage("usage: torch on|off")
            }
            return .torch(on)
        },
    ]

    static let controlDefinitions: [CommandDefinition] = [
        CommandDefinition(
            "lens", forms: [form("lens DIOPTRES", "manual lens position (0 = infinity)", "lens 2")]
        ) {
            words in
            guard words.count == 1, let dioptres = Double(words[0]!) else {
                throw ConsoleError.usage("usage: lens DIOPTRES (e.g. lens 2 for 0.5 m, lens 0 for infinity)")
            }
            return .lens(dioptres)
        },
        CommandDefinition(
            "af",
            forms: [
                form("af mode manual|auto|continuous", "autofocus mode", "af mode auto", "af continuous"),
                form(
                    "af point X Y", "autofocus point in the upright picture (0…1, 0 0 is the top left)",
                    "af point 0.5 0.5"),
                form("af trigger [--json]", "focus now; answers with the state", "af trigger"),
                form("af range normal|macro|full", "autofocus search range", "af range macro"),
                form("af speed normal|fast", "autofocus speed", "af speed fast"),
            ], parse: parseAF),
        CommandDefinition(
            "metering", forms: [form("metering centre|spot|matrix", "metering mode", "metering spot")]
        ) { words in
            let word = words[0] == "center" ? "centre" : words[0] ?? ""
            guard words.count == 1, let mode = MeteringMode(rawValue: word) else {
                throw ConsoleError.usage("usage: metering centre|spot|matrix")
            }
            return .metering(mode)
        },
        CommandDefinition(
            "awb",
            forms: [
                form(
                    "awb " + WhiteBalanceMode.allCases.map(\.rawValue).joined(separator: "|"),
                    "white balance",
                    "awb auto", "awb daylight"),
                form(
                    "awb lock|unlock", "hold the colour balance AWB has chosen, or let it follow", "awb lock"),
            ]
        ) { words in
            if words.count == 1, let lock = ["lock": true, "unlock": false][words[0]!] {
                return .awbLock(lock)
            }
            guard words.count == 1, let mode = WhiteBalanceMode(rawValue: words[0]!) else {
                let modes = WhiteBalanceMode.allCases.map(\.rawValue).joined(separator: "|")
                throw ConsoleError.usage("usage: awb \(modes)")
            }
            return .whiteBalance(mode)
        },
        CommandDefinition(
            "album",
            forms: [
                form(
                    "album current NAME|off", "put every new photo into album NAME (off: none)",
                    "album current Trip", "album current off")
            ]
        ) { words in
            guard words.count == 2, words[0] == "current", let name = words[1], !name.isEmpty else {
                throw ConsoleError.usage("usage: album current NAME|off")
            }
            return .albumCurrent(name == "off" ? nil : name)
        },
        CommandDefinition(
            "ae",
            forms: [
                form("ae lock|unlock", "hold the exposure AE has chosen, or let it follow", "ae lock"),
                form(
                    "ae point X Y|off", "meter at a point of the upright picture (0…1, 0 0 is the top left)",
                    "ae point 0.25 0.5", "ae point off"),
            ]
        ) { words in
            if words[0] == "point" {
                if words.count == 2, words[1] == "off" { return .aePointOff }
                guard words.count == 3, let x = Double(words[1]!), let y = Double(words[2]!) else {
                    throw ConsoleError.usage(
                        "usage: ae point X Y (normalized 0…1, 0 0 is the top left) | ae point off")
                }
                return .aePoint(x: x, y: y)
            }
            guard words.count == 1, let lock = ["lock": true, "unlock": false][words[0]!] else {
                throw ConsoleError.usage("usage: ae lock|unlock | ae point X Y|off")
            }
            return .aeLock(lock)
        },
        CommandDefinition(
            "zoom",
            forms: [
                form("zoom FACTOR", "digital zoom from 1.0 (none) to the camera's limit", "zoom 2", "zoom 1")
            ]
        ) { words in
            guard words.count == 1, let factor = Double(words[0]!) else {
                throw ConsoleError.usage("usage: zoom FACTOR (1.0 is none, e.g. zoom 2)")
            }
            return .zoom(factor)
        },
        CommandDefinition("flash", forms: [form("flash off|on|auto", "the torch as flash", "flash auto")]) {
            words in
            guard words.count == 1, let mode = FlashMode(rawValue: words[0]!) else {
                throw ConsoleError.usage("usage: flash off|on|auto")
            }
            return .flash(mode)
        },
        CommandDefinition(
            "exposure",
            forms: [
                form("exposure auto", "automatic exposure", "exposure auto"),
                form(
                    "exposure manual TIME_US GAIN", "manual exposure time and gain", "exposure manual 10000 2"
                ),
            ]
        ) { words in
            switch words[0] {
            case "auto":
                try words.expect(words.count == 1, "usage: exposure auto")
                return .exposureAuto
            case "manual":
                guard words.count == 3, let time = Int(words[1]!), time > 0, let gain = Double(words[2]!)
                else {
                    throw ConsoleError.usage(
                        "usage: exposure manual TIME_US GAIN (e.g. exposure manual 10000 2)")
                }
                return .exposureManual(timeUs: time, gain: gain)
            default:
                throw ConsoleError.usage("usage: exposure auto | exposure manual TIME_US GAIN")
            }
        },
        CommandDefinition("ev", forms: [form("ev STOPS", "exposure compensation", "ev -1", "ev 0.5")]) {
            words in
            guard words.count == 1, let stops = Double(words[0]!) else {
                throw ConsoleError.usage("usage: ev STOPS")
            }
            return .ev(stops)
        },
    ]

    @Sendable static func parseAF(_ words: inout CommandWords) throws -> ConsoleCommand {
        let usage =
            "usage: af mode manual|auto|continuous | af point X Y | af trigger | af range normal|macro|full"
            + " | af speed normal|fast"
        if words.count == 1, let mode = AutofocusMode(rawValue: words[0]!) { return .afMode(mode) }
        switch words[0] {
        case "mode":
            guard words.count == 2, let mode = AutofocusMode(rawValue: words[1]!) else {
                throw ConsoleError.usage("usage: af mode manual|auto|continuous")
            }
            return .afMode(mode)
        case "point":
            guard words.count == 3, let x = Double(words[1]!), let y = Double(words[2]!) else {
                throw ConsoleError.usage("usage: af point X Y (normalized 0…1, 0 0 is the top left)")
            }
            return .afPoint(x: x, y: y)
        case "trigger":
            try words.expect(words.count == 1, "usage: af trigger")
            return .afTrigger
        case "range":
            guard words.count == 2, let range = AutofocusRange(rawValue: words[1]!) else {
                throw ConsoleError.usage("usage: af range normal|macro|full")
            }
            return .afRange(range)
        case "speed":
            guard words.count == 2, let speed = AutofocusSpeed(rawValue: words[1]!) else {
                throw ConsoleError.usage("usage: af speed normal|fast")
            }
            return .afSpeed(speed)
        default:
            throw ConsoleError.usage(usage)
        }
    }
}

// MARK: - Status, library, system

extension CommandCatalog {
    static let systemDefinitions: [CommandDefinition] = [
        CommandDefinition(
            "status",
            forms: [
                form("status [--json]", "camera, exposure, torch, photos, storage, last capture", "status")
            ]
        ) { words in
            try words.finish(usage: "status [--json]")
            return .status
        },
        CommandDefinition(
            "library", forms: [form("library …", "the photo library (library help)", "library help")]
        ) { words in .library(words.all) },
        CommandDefinition(
            "gpio",
            forms: [
                form("gpio status [--json]", "inputs and outputs with their current state", "gpio status")
            ]
        ) { words in
            guard words.all == ["status"] else { throw ConsoleError.usage("usage: gpio status [--json]") }
            return .gpioStatus
        },
        CommandDefinition(
            "led",
            forms: [
                form(
                    "led test NAME",
                    "blink an output (" + OutputFunction.allCases.map(\.rawValue).joined(separator: ", ")
                        + ")",
                    "led test status")
            ]
        ) { words in
            guard words.count == 2, words[0] == "test" else {
                throw ConsoleError.usage("usage: led test NAME")
            }
            guard let function = OutputFunction(rawValue: words[1]!) else {
                let names = OutputFunction.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConsoleError.usage("no output '\(words[1]!)': outputs are \(names)")
            }
            return .ledTest(function)
        },
        CommandDefinition("log", forms: [form("log [--json]", "recent problems and events", "log")]) {
            words in
            try words.finish(usage: "log [--json]")
            return .log
        },
        CommandDefinition(
            "shutdown",
            forms: [
                form(
                    "shutdown [--poweroff]",
                    "stop the camera, close the library and exit (and power the board off)", "shutdown",
                    "shutdown --poweroff")
            ]
        ) { words in
            guard words.count == 0 || words.all == ["--poweroff"] else {
                throw ConsoleError.usage("usage: shutdown [--poweroff]")
            }
            return .shutdown(powerOff: words.count == 1)
        },
        CommandDefinition(
            "menu", forms: [form("menu", "switch to the interactive menu (on a terminal)", "menu")]
        ) { words in
            try words.finish(usage: "menu")
            return .menu
        },
        CommandDefinition(
            "settings",
            forms: [
                form(
                    "settings [--json]", "the settings saved in the configuration file (needs the PIN)",
                    "settings")
            ]
        ) { words in
            guard words.count == 0 else { throw ConsoleError.usage("usage: settings [--json]") }
            return .settings
        },
        CommandDefinition(
            "set",
            forms: [
                form(
                    "set KEY VALUE", "change a setting and save it (needs the PIN)", "set capture.quality 90")
            ]
        ) { words in
            guard words.count == 2 else {
                throw ConsoleError.usage("usage: set KEY VALUE (settings lists the keys)")
            }
            return .set(key: words[0]!, value: words[1]!)
        },
        CommandDefinition(
            "help", aliases: ["?"], forms: [form("help [--json]", "this list", "help", "help --json")]
        ) { _ in .help },
        CommandDefinition(
            "quit", aliases: ["exit"],
            forms: [form("quit", "leave the console (the appliance keeps running under systemd)", "quit")]
        ) { _ in .quit },
    ]

    static let accessDefinitions: [CommandDefinition] = [
        CommandDefinition(
            "pin",
            forms: [
                form("pin set NEW_PIN", "change the console PIN (needs the PIN)", "pin set 2468"),
                form("pin clear", "remove the console PIN (needs the PIN)", "pin clear"),
            ]
        ) { words in
            switch words[0] {
            case "clear":
                guard words.count == 1 else { throw ConsoleError.usage("usage: pin clear") }
                return .pinClear
            case "set":
                guard words.count == 2 else { throw ConsoleError.usage("usage: pin set NEW_PIN") }
                return .pinSet(words[1]!)
            default:
                throw ConsoleError.usage("usage: pin set NEW_PIN | pin clear")
            }
        },
        CommandDefinition(
            "unlock",
            forms: [form("unlock PIN", "unlock the library and settings (when a PIN is set)", "unlock 2468")]
        ) { words in
            guard words.count == 1 else { throw ConsoleError.usage("usage: unlock PIN") }
            return .unlock(words[0]!)
        },
        CommandDefinition("lock", forms: [form("lock", "lock the library and settings again", "lock")]) {
            words in
            guard words.count == 0 else { throw ConsoleError.usage("usage: lock") }
            return .lock
        },
    ]
}
