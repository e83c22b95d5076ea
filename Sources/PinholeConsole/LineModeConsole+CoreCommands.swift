// The line-mode command set: parsing each command's words and running it.

import PinholeAppliance
import PinholeCore

extension LineModeConsole {
    /// Runs one parsed command; its answer goes to `reply` (now or when it is done).
    // swiftlint:disable:next cyclomatic_complexity function_body_length
    func run(_ command: ConsoleCommand, json: Bool, reply: @escaping (Result<String, Error>) -> Void) throws {
        switch command {
        case .help:
            reply(.success(json ? CommandCatalog.helpJSON : CommandCatalog.help))
        case .quit:
            reply(.success("ok bye"))
            onQuit?()
        case .capture(let request):
            captureCommand(request, json: json, reply: reply)
        case .ledTest(let function):
            try ledCommand(function, reply: reply)
        case .log:
            let lines = appliance.problems
            reply(
                .success(
                    json
                        ? jsonLine(lines)
                        : "ok " + (lines.isEmpty ? "nothing logged" : lines.joined(separator: " | "))))
        case .menu:
            guard let onMenu else {
                throw ConsoleError.unavailable("the menu needs a terminal: this console is a pipe")
            }
            reply(.success("ok menu"))
            onMenu()
        case .shutdown(let powerOff):
            reply(.success(powerOff ? "ok shutting down and powering off" : "ok shutting down"))
            if let onShutdown { onShutdown(powerOff) } else { onQuit?() }
        case .cameraList, .cameraSwitch, .cameraSelect:
            try cameraCommand(command, json: json, reply: reply)
        case .torch(let on):
            try appliance.setTorch(on)
            answerReports(eventsStartingWith: ["torch "])
            reply(.success("ok torch \(on ? "on" : "off")"))
        case .albumCurrent(let title):
            try appliance.engine.setCurrentAlbum(title)
            reply(.success(title.map { "ok album current \($0)" } ?? "ok album current off"))
        case .aePoint(let x, let y):
            try appliance.engine.setAEPoint(x: x, y: y)
            reply(.success("ok ae point \(x) \(y)"))
        case .aePointOff:
            try appliance.engine.clearAEPoint()
            reply(.success("ok ae point off (metering \(appliance.engine.exposure.metering.rawValue))"))
        case .zoom(let factor):
            try appliance.engine.setZoom(factor)
            reply(.success("ok zoom \(factor)"))
        case .cameraSize(let width, let height):
            try appliance.engine.setStillSize(PixelSize(width: width, height: height))
            reply(.success("ok camera size \(width)x\(height)"))
        case .aeLock(let lock):
            try appliance.engine.setAELock(lock)
            reply(.success("ok ae \(lock ? "locked" : "unlocked")"))
        case .awbLock(let lock):
            try appliance.engine.setAWBLock(lock)
            reply(.success("ok awb \(lock ? "locked" : "unlocked")"))
        case .lens, .afMode, .afPoint, .afTrigger, .afRange, .afSpeed, .metering, .whiteBalance, .flash,
            .exposureAuto, .exposureManual, .ev:
            try cameraControlCommand(command, json: json, reply: reply)
        case .status:
            let status = appliance.status()
            let access = self.access.describe(at: appliance.loop.now)
            if json {
                reply(.success(jsonLine(StatusAnswer(status: status, access: access))))
            } else {
                let zoom = (status.zoom ?? 1) > 1 ? " zoom \(status.zoom!)x" : ""
                let camera =
                    status.camera.map { "\($0.model) (\($0.position)) \($0.stillSize)\(zoom)" }
                    ?? status.cameraMissing.map { "missing (\($0))" } ?? "none"
                let photos = status.photos.map(String.init) ?? "?"
                reply(
                    .success(
                        "ok camera \(camera), torch \(status.torch ? "on" : "off"), photos \(photos)"
                            + (status.busy ? ", busy" : "") + status.fieldSummary
                            + ", gps \(status.gps ?? "off"), clock \(status.clock ?? "unknown")"
                            + ", access \(access)"))
            }
        case .settings, .set, .pinSet, .pinClear:
            try settingsCommand(command, json: json, reply: reply)
        case .unlock, .lock:
            try accessCommand(command, reply: reply)
        case .library(let words):
            guard let library else { throw ConsoleError.unavailable("no library is open") }
            // Off the loop: fsck --verify, import and export take long; buttons, LEDs, the
            // watchdog and captures go on meanwhile.
            appliance.loop.offloadLong({ Result { try library(words) } }) { result in
                reply(
                    result.map { output in
                        let line = output.split(separator: "\n").joined(separator: " ")
                        return json || line.hasPrefix("ok") ? line : "ok " + line
                    })
            }
        case .sim(let sim):
            try simCommand(sim, reply: reply)
        case .gpioStatus:
            try gpioCommand(json: json, reply: reply)
        case .timelapseStart, .timelapseStop, .timelapseStatus:
            try timelapseCommand(command, json: json, reply: reply)
        }
    }

    private func cameraCommand(
        _ command: ConsoleCommand, json: Bool, reply: @escaping (Result<String, Error>) -> Void
    ) throws {
        let engine = appliance.engine
        switch command {
        case .cameraList:
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
        case .cameraSwitch:
            let camera = try appliance.switchCamera()
            answerReports(eventsStartingWith: ["camera "])
            reply(.success("ok camera \(camera.id) \(engine.position(of: camera).rawValue)"))
        case .cameraSelect(let id):
            try appliance.selectCamera(id)
            let camera = engine.current!
            answerReports(eventsStartingWith: ["camera "])
            reply(.success("ok camera \(camera.id) \(engine.position(of: camera).rawValue)"))
        default:
            preconditionFailure("not a camera command: \(command)")
        }
    }

    private func simCommand(_ command: SimCommand, reply: @escaping (Result<String, Error>) -> Void) throws {
        guard let simulation else {
            throw ConsoleError.unavailable("sim commands need the simulated board (pinhole run --board sim)")
        }
        switch command {
        case .sceneLux, .sceneChange, .fault:
            try simSceneCommand(command, simulation: simulation, reply: reply)
        case .press, .hold, .release, .tilt:
            try simButtonCommand(command, simulation: simulation, reply: reply)
        case .wait(let ms):
            appliance.loop.schedule(after: .milliseconds(ms)) { reply(.success("ok waited \(ms) ms")) }
        case .trigger(let name):
            try triggerCommand(name, simulation: simulation, reply: reply)
        }
    }
}

extension String {
    /// Accepts "half-press" for "half_press".
    func replacingUnderscoreAliases() -> String {
        String(map { $0 == "-" ? "_" : $0 })
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
    var pressToExposureMs: Double
    var gain: Double
    var flashFired: Bool?
    var afState: String
    /// Milliseconds from waking the camera to its first frame, for a press that woke it.
    var wakeCostMs: Double?

    init(_ capture: CaptureResult) {
        id = capture.photo.id
        wakeCostMs = capture.wakeCost?.milliseconds
        file = capture.photo.file
        camera = capture.cameraID
        selection = capture.selection.rawValue
        exposureTimeUs = Int(capture.frame.exposureTime.nanoseconds / 1000)
        iso = capture.metadata.iso
        lensPosition = capture.frame.lensPosition
        pressToSavedMs = (capture.savedAt - capture.pressedAt).milliseconds
        pressToExposureMs = capture.pressToExposure.milliseconds
        gain = capture.gain
        flashFired = capture.flashFired
        afState = capture.afState.rawValue
    }
}
