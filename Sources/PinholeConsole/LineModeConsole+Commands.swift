// The line-mode command set: parsing each command's words and running it.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    /// One line per command, for `help`.
    static let commandSummary: [(String, String)] = [
        ("capture [--json]", "take a photo now; answers when it is saved"),
        ("camera list [--json]", "cameras with their sizes and controls"),
        ("camera switch", "switch to the next camera"),
        ("camera select ID", "switch to a camera by id or model"),
        ("torch on|off", "the torch LED (cameras with a torch)"),
        ("lens DIOPTRES", "manual lens position (0 = infinity)"),
        ("exposure auto | exposure manual TIME_US GAIN", "exposure control"),
        ("ev STOPS", "exposure compensation"),
        ("status [--json]", "camera, exposure, torch, photos, storage, last capture"),
        ("library …", "the photo library (library help)"),
        ("sim press BUTTON [--hold MS] [--bounce N]", "simulated board: press shutter|half_press|switch|torch"),
        ("sim hold BUTTON | sim release BUTTON", "simulated board: hold down, let go"),
        ("sim scene lux N | sim scene change", "simulated board: light level, new subject"),
        ("sim fault camera-timeout", "simulated board: the camera stops sending frames"),
        ("sim wait MS", "let MS milliseconds pass"),
        ("help", "this list"),
        ("quit", "leave the console (the appliance keeps running under systemd)"),
    ]

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    func dispatch(_ command: String, _ args: [String], words: [String], json: Bool,
                  reply: @escaping (Result<String, Error>) -> Void) throws {
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
            try expectArguments(args, count: 0, usage: "capture [--json]")
            appliance.capture { result in
                reply(result.map { capture in
                    json ? jsonLine(CaptureAnswer(capture)) : "ok saved \(capture.photo.id) \(capture.photo.file)"
                })
            }
        case "camera":
            try cameraCommand(args, json: json, reply: reply)
        case "torch":
            guard args.count == 1, let on = ["on": true, "off": false][args[0]] else {
                throw ConsoleError.usage("usage: torch on|off")
            }
            try appliance.setTorch(on)
            reply(.success("ok torch \(on ? "on" : "off")"))
        case "lens":
            guard args.count == 1, let dioptres = Double(args[0]) else {
                throw ConsoleError.usage("usage: lens DIOPTRES (e.g. lens 2 for 0.5 m, lens 0 for infinity)")
            }
            try appliance.engine.setControls(["LensPosition": .double(dioptres)])
            reply(.success("ok lens \(dioptres)"))
        case "exposure":
            try exposureCommand(args, reply: reply)
        case "ev":
            guard args.count == 1, let stops = Double(args[0]) else { throw ConsoleError.usage("usage: ev STOPS") }
            try appliance.engine.setControls(["ExposureValue": .double(stops)])
            reply(.success("ok ev \(stops)"))
        case "status":
            let status = appliance.status()
            if json {
                reply(.success(jsonLine(status)))
            } else {
                let camera = status.camera.map { "\($0.model) (\($0.position))" } ?? "none"
                let photos = status.photos.map(String.init) ?? "?"
                reply(.success("ok camera \(camera), torch \(status.torch ? "on" : "off"), photos \(photos)"
                    + (status.busy ? ", busy" : "")))
            }
        case "library":
            guard let library else { throw ConsoleError.unavailable("no library is open") }
            let output = try library(words)
            reply(.success(output.split(separator: "\n").joined(separator: " ")))
        case "sim":
            try simCommand(args, reply: reply)
        case "af", "flash", "metering", "awb":
            throw ConsoleError.unavailable("'\(command)' is not available in this build yet")
        default:
            throw ConsoleError.usage("unknown command '\(command)': type help for the list")
        }
    }

    private func expectArguments(_ args: [String], count: Int, usage: String) throws {
        guard args.count == count else { throw ConsoleError.usage("usage: \(usage)") }
    }

    private func cameraCommand(_ args: [String], json: Bool, reply: @escaping (Result<String, Error>) -> Void) throws {
        let engine = appliance.engine
        switch args.first {
        case "list":
            let listings = engine.cameras.map { CameraListing($0, engine: engine) }
            if json {
                reply(.success(jsonLine(listings)))
            } else {
                reply(.success("ok " + (listings.isEmpty ? "no cameras" : listings.map(\.line).joined(separator: "; "))))
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

    private func exposureCommand(_ args: [String], reply: @escaping (Result<String, Error>) -> Void) throws {
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
    }

    private func simCommand(_ args: [String], reply: @escaping (Result<String, Error>) -> Void) throws {
        guard let simulation else {
            throw ConsoleError.unavailable("sim commands need the simulated board (pinhole run --board sim)")
        }
        var options = OptionReader(args)
        switch options.word() {
        case "press":
            let button = try buttonArgument(options.word())
            let hold = try options.integer("--hold") ?? 100
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim press BUTTON [--hold MS] [--bounce N]")
            let stable = try simulation.press(button, hold: .milliseconds(hold), bounce: bounce)
            afterQuiet(from: stable) { [weak self] in
                let saved = self?.eventsDuringCommand ?? []
                let suffix = saved.isEmpty ? "" : "; " + saved.joined(separator: "; ")
                reply(.success("ok pressed \(button.rawValue) held \(hold) ms bounce \(bounce)\(suffix)"))
            }
        case "hold":
            let button = try buttonArgument(options.word())
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim hold BUTTON [--bounce N]")
            try simulation.hold(button, bounce: bounce)
            afterQuiet(from: appliance.loop.now + .milliseconds(20)) {
                reply(.success("ok holding \(button.rawValue)"))
            }
        case "release":
            let button = try buttonArgument(options.word())
            let bounce = try options.integer("--bounce") ?? 0
            try options.finish(usage: "sim release BUTTON [--bounce N]")
            try simulation.release(button, bounce: bounce)
            afterQuiet(from: appliance.loop.now + .milliseconds(20)) { [weak self] in
                let saved = self?.eventsDuringCommand ?? []
                reply(.success("ok released \(button.rawValue)" + (saved.isEmpty ? "" : "; " + saved.joined(separator: "; "))))
            }
        case "scene":
            switch options.word() {
            case "lux":
                guard let text = options.word(), let lux = Double(text), lux >= 0 else {
                    throw ConsoleError.usage("usage: sim scene lux N (N ≥ 0)")
                }
                simulation.setLux(lux)
                reply(.success("ok scene lux \(lux)"))
            case "change":
                simulation.changeScene()
                reply(.success("ok scene changed"))
            default:
                throw ConsoleError.usage("usage: sim scene lux N | sim scene change")
            }
        case "fault":
            guard let name = options.word() else { throw ConsoleError.usage("usage: sim fault camera-timeout") }
            try simulation.injectFault(name)
            reply(.success("ok fault \(name)"))
        case "wait":
            guard let text = options.word(), let ms = Int(text), ms >= 0 else {
                throw ConsoleError.usage("usage: sim wait MS")
            }
            appliance.loop.schedule(after: .milliseconds(ms)) { reply(.success("ok waited \(ms) ms")) }
        default:
            throw ConsoleError.usage("usage: sim press|hold|release|scene|fault|wait … (type help)")
        }
    }

    private func buttonArgument(_ word: String?) throws -> ButtonFunction {
        guard let word, let button = ButtonFunction(rawValue: word.replacingUnderscoreAliases()) else {
            throw ConsoleError.usage("unknown button '\(word ?? "")': shutter, half_press, switch or torch")
        }
        return button
    }

    /// Runs `done` once `instant` has passed and the appliance is idle (no button settling,
    /// no capture waiting or being saved).
    func afterQuiet(from instant: Instant, _ done: @escaping () -> Void) {
        let loop = appliance.loop
        loop.schedule(at: instant + .milliseconds(1)) { [weak self] in self?.waitIdle(done) }
    }

    private func waitIdle(_ done: @escaping () -> Void) {
        if appliance.isBusy {
            appliance.loop.schedule(after: .milliseconds(5)) { [weak self] in self?.waitIdle(done) }
        } else {
            done()
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

    init(_ capture: CaptureResult) {
        id = capture.photo.id
        file = capture.photo.file
        camera = capture.cameraID
        selection = capture.selection.rawValue
        exposureTimeUs = Int(capture.frame.exposureTime.nanoseconds / 1000)
        iso = capture.metadata.iso
        lensPosition = capture.frame.lensPosition
        pressToSavedMs = (capture.savedAt - capture.pressedAt).milliseconds
    }
}
