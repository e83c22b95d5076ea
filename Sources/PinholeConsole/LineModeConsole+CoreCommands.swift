// The line-mode command set: parsing each command's words and running it.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    /// One line per command, for `help`.
    static let commandSummary: [(String, String)] = [
        ("capture [--json]", "take a photo now; answers when it is saved"),
        ("capture --timer SECONDS", "self-timer: a photo after SECONDS (1-60)"),
        ("capture --burst N", "N photos in a row (2-20)"),
        ("camera list [--json]", "cameras with their sizes and controls"),
        ("camera switch", "switch to the next camera"),
        ("camera select ID", "switch to a camera by id or model"),
        ("torch on|off", "the torch LED (cameras with a torch)"),
        ("lens DIOPTRES", "manual lens position (0 = infinity)"),
        (
            "af mode manual|auto|continuous | af point X Y | af trigger",
            "autofocus (trigger answers with the state)"
        ),
        ("af range normal|macro|full | af speed normal|fast", "autofocus search range and speed"),
        ("metering centre|spot|matrix | awb MODE | flash off|on|auto", "metering, white balance, flash"),
        ("exposure auto | exposure manual TIME_US GAIN", "exposure control"),
        ("ev STOPS", "exposure compensation"),
        ("status [--json]", "camera, exposure, torch, photos, storage, last capture"),
        ("library …", "the photo library (library help)"),
        (
            "sim press BUTTON [--hold MS] [--bounce N]",
            "simulated board: press shutter|half_press|switch|torch"
        ),
        ("sim hold BUTTON | sim release BUTTON", "simulated board: hold down, let go"),
        (
            "sim tilt DEGREES [--bounce N]",
            "simulated board: turn the body 0, 90, 180 or 270 degrees (tilt sensor)"
        ),
        ("gpio status [--json]", "inputs and outputs with their current state"),
        ("sim scene lux N | sim scene change", "simulated board: light level, new subject"),
        ("sim fault camera-timeout", "simulated board: the camera stops sending frames"),
        ("sim wait MS", "let MS milliseconds pass"),
        ("led test NAME", "blink an output (status, capture, error, torch, buzzer)"),
        ("log", "recent problems and events"),
        ("shutdown [--poweroff]", "stop the camera, close the library and exit (and power the board off)"),
        ("menu", "switch to the interactive menu (on a terminal)"),
        ("settings [--json]", "the settings saved in the configuration file (needs the PIN)"),
        ("set KEY VALUE", "change a setting and save it (needs the PIN)"),
        ("pin set NEW_PIN | pin clear", "change or remove the console PIN (needs the PIN)"),
        ("unlock PIN", "unlock the library and settings (when a PIN is set)"),
        ("lock", "lock the library and settings again"),
        ("help", "this list"),
        ("quit", "leave the console (the appliance keeps running under systemd)"),
    ]

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    func dispatch(
        _ command: String, _ args: [String], words: [String], json: Bool,
        reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        switch command {
        case "help", "?":
            let list = Self.commandSummary.map { "\($0.0)" }.joined(separator: " | ")
            if json {
                reply(.success(jsonLine(Self.commandSummary.map { ["command": $0.0, "does": $0.1] })))
            } else {
                reply(.success("ok commands: \(list)"))
            }
        case "quit", "exit":
            reply(.success("ok bye"))
            onQuit?()
        case "capture":
            try captureCommand(args, json: json, reply: reply)
        case "led":
            try ledCommand(args, reply: reply)
        case "log":
            let lines = appliance.problems
            reply(
                .success(
                    json
                        ? jsonLine(lines)
                        : "ok " + (lines.isEmpty ? "nothing logged" : lines.joined(separator: " | "))))
        case "menu":
            guard let onMenu else {
                throw ConsoleError.unavailable("the menu needs a terminal: this console is a pipe")
            }
            reply(.success("ok menu"))
            onMenu()
        case "shutdown":
            guard args.isEmpty || args == ["--poweroff"] else {
                throw ConsoleError.usage("usage: shutdown [--poweroff]")
            }
            let powerOff = args == ["--poweroff"]
            reply(.success(powerOff ? "ok shutting down and powering off" : "ok shutting down"))
            if let onShutdown { onShutdown(powerOff) } else { onQuit?() }
        case "camera":
            try cameraCommand(args, json: json, reply: reply)
        case "torch":
            guard args.count == 1, let on = ["on": true, "off": false][args[0]] else {
                throw ConsoleError.usage("usage: torch on|off")
            }
            try appliance.setTorch(on)
            reply(.success("ok torch \(on ? "on" : "off")"))
        case "lens", "exposure", "ev", "af", "flash", "metering", "awb":
            try cameraControlCommand(command, args, json: json, reply: reply)
        case "status":
            let status = appliance.status()
            let access = self.access.describe(at: appliance.loop.now)
            if json {
                reply(.success(jsonLine(StatusAnswer(status: status, access: access))))
            } else {
                let camera = status.camera.map { "\($0.model) (\($0.position))" } ?? "none"
                let photos = status.photos.map(String.init) ?? "?"
                reply(
                    .success(
                        "ok camera \(camera), torch \(status.torch ? "on" : "off"), photos \(photos)"
                            + (status.busy ? ", busy" : "") + ", access \(access)"
                            + ", gps \(status.gps ?? "off"), clock \(status.clock ?? "unknown")"))
            }
        case "settings", "set", "pin":
            try settingsCommand(command, args, json: json, reply: reply)
        case "unlock", "lock":
            try accessCommand(command, args, reply: reply)
        case "library":
            guard let library else { throw ConsoleError.unavailable("no library is open") }
            let output = try library(words)
            let line = output.split(separator: "\n").joined(separator: " ")
            reply(.success(json || line.hasPrefix("ok") ? line : "ok " + line))
        case "sim":
            try simCommand(args, reply: reply)
        case "gpio": try gpioCommand(args, json: json, reply: reply)
        default:
            throw ConsoleError.usage("unknown command '\(command)': type help for the list")
        }
    }

    private func cameraCommand(_ args: [String], json: Bool, reply: @escaping (Result<String, Error>) -> Void)
        throws
    {
        let engine = appliance.engine
        switch args.first {
        case "list":
            let listings = engine.cameras.map { CameraListing($0, engine: engine) }
            if json {
                reply(.success(jsonLine(listings)))
            } else {
                reply(
                    .success(
                        "ok "
                            + (listings.isEmpty ? "no cameras" : listings.map(\.line).joined(separator: "; "))
                    ))
            }
        case "switch":
            let camera = try appliance.switchCamera()
            reply(.success("ok camera \(camera.id) \(engine.position(of: camera).rawValue)"))
        case "select":
            guard args.count == 2 else { throw ConsoleError.usage("usage: camera select ID") }
            try appliance.selectCamera(args[1])
            let camera = engine.current!
            reply(.success("ok camera \(camera.id) \(engine.position(of: camera).rawValue)"))
        default:
            throw ConsoleError.usage("usage: camera list [--json] | camera switch | camera select ID")
        }
    }

    private func simCommand(_ args: [String], reply: @escaping (Result<String, Error>) -> Void) throws {
        guard let simulation else {
            throw ConsoleError.unavailable("sim commands need the simulated board (pinhole run --board sim)")
        }
        var options = OptionReader(args)
        let verb = options.word()
        switch verb {
        case "scene", "fault":
            try simSceneCommand(verb!, options: &options, simulation: simulation, reply: reply)
        case "press", "hold", "release", "tilt":
            try simButtonCommand(verb!, options: &options, simulation: simulation, reply: reply)
        case "wait":
            guard let text = options.word(), let ms = Int(text), ms >= 0 else {
                throw ConsoleError.usage("usage: sim wait MS")
            }
            appliance.loop.schedule(after: .milliseconds(ms)) { reply(.success("ok waited \(ms) ms")) }
        default:
            throw ConsoleError.usage("usage: sim press|hold|release|tilt|scene|fault|wait … (type help)")
        }
    }
}

extension String {
    /// Accepts "half-press" for "half_press".
    func replacingUnderscoreAliases() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}

/// Reads positional words and `--name value` options from a command's arguments.
struct OptionReader {
    private var words: [String]

    init(_ words: [String]) { self.words = words }

    /// The next positional word.
    mutating func word() -> String? {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") }) else { return nil }
        if index > 0, words[index - 1].hasPrefix("--") { return nil }
        return words.remove(at: index)
    }

    /// An integer option.
    mutating func integer(_ name: String) throws -> Int? {
        guard let index = words.firstIndex(of: name) else { return nil }
        guard index + 1 < words.count, let value = Int(words[index + 1]), value >= 0 else {
            throw ConsoleError.usage("\(name) needs a whole number ≥ 0")
        }
        words.removeSubrange(index...(index + 1))
        return value
    }

    /// Fails if anything is left over.
    func finish(usage: String) throws {
        if let extra = words.first { throw ConsoleError.usage("unexpected '\(extra)': usage: \(usage)") }
    }
}

/// The `capture --json` answer.
struct CaptureAnswer: Encodable {
    var id: String
    var file: String
    var camera: String
    var selection: String
    var exposureTimeUs: Int
    var iso: Int?
    var lensPosition: Double?
    var pressToSavedMs: Double
    var gain: Double
    var flashFired: Bool?
    var afState: String

    init(_ capture: CaptureResult) {
        id = capture.photo.id
        file = capture.photo.file
        camera = capture.cameraID
        selection = capture.selection.rawValue
        exposureTimeUs = Int(capture.frame.exposureTime.nanoseconds / 1000)
        iso = capture.metadata.iso
        lensPosition = capture.frame.lensPosition
        pressToSavedMs = (capture.savedAt - capture.pressedAt).milliseconds
        gain = capture.gain
        flashFired = capture.flashFired
        afState = capture.afState.rawValue
    }
}
