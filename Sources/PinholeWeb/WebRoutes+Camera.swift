// Camera routes: the live view (MJPEG while watched), typed camera commands, pushed events,
// status and settings behind the session.

import HTTPTypes
import Hummingbird
import NIOCore
import PinholeAppliance
import PinholeCapture
import PinholeConsole
import PinholeImaging
import Synchronization

/// Live views open at once, at most (each renders and encodes frames while watched).
let liveViewers = Atomic<Int>(0)

extension WebRoutes {
    /// Live views served at once at most.
    static let maximumLiveViewers = 3

    func addCameraRoutes(to router: Router<WebContext>) {
        router.get("/camera") { _, context in
            let session = try Self.session(context)
            let frame = await backend.viewfinderFrame()
            return Self.html(
                HTML.page(
                    title: "Camera", csrf: session.csrf, body: CameraPage.render(rotation: frame?.rotation)))
        }
        router.get("/camera/live") { _, _ in try liveView() }
        router.post("/camera/command") { request, context in
            let form = try await Self.form(request, context: context)
            let (ok, answer) = await command(try Self.cameraCommand(form))
            return Self.text(answer, status: ok ? .ok : .conflict)
        }
        router.get("/events") { _, _ in events() }
        router.get("/status") { request, context in
            let session = try Self.session(context)
            let (_, json) = await command(StatusCommand(), json: true)
            let (_, log) = await command(LogCommand())
            let sections = StatusPage.sections(statusJSON: json, log: log)
            // The page fetches its sections again each time an event is pushed.
            if request.uri.queryParameters["sections"] != nil { return Self.html(sections) }
            let body = "<div id=\"status\">\(sections)</div><h2>Events</h2><pre id=\"log\"></pre>"
            return Self.html(HTML.page(title: "Status", csrf: session.csrf, body: body))
        }
        router.get("/settings") { _, context in
            let session = try Self.session(context)
            let (_, answer) = await command(SettingsCommand())
            return Self.html(
                HTML.page(
                    title: "Settings", csrf: session.csrf,
                    body: SettingsPage.render(settingsAnswer: answer, csrf: session.csrf, message: nil)))
        }
        router.post("/settings") { request, context in
            let form = try await Self.form(request, context: context)
            guard let key = form["key"], let value = form["value"], key.utf8.count <= 64,
                value.utf8.count <= 256
            else { throw HTTPError(.badRequest, message: "a setting needs a key and a value") }
            guard SetCommand.keys.contains(key) else {
                throw HTTPError(.badRequest, message: "no setting '\(key)': the settings page lists them")
            }
            let (ok, answer) = await command(SetCommand(key: key, value: value), form: form)
            guard ok else {
                // The page again, with the console's answer (a wrong value, or the word to type).
                let session = try Self.session(context)
                let (_, settings) = await command(SettingsCommand())
                return Self.html(
                    HTML.page(
                        title: "Settings", csrf: session.csrf,
                        body: SettingsPage.render(
                            settingsAnswer: settings, csrf: session.csrf, message: answer)),
                    status: .conflict)
            }
            return Response(status: .seeOther, headers: [.location: "/settings"])
        }
    }

    /// The typed command a camera form asks for (values checked here; the appliance checks
    /// them against what the camera supports).
    static func cameraCommand(_ form: WebForm) throws -> any ConsoleCommand {
        func number(_ name: String) throws -> Double {
            guard let text = form[name], text.utf8.count <= 32, let value = Double(text), value.isFinite
            else {
                throw HTTPError(.badRequest, message: "\(name) must be a number")
            }
            return value
        }
        switch form["command"] ?? "" {
        case "shutter": return CaptureCommand.now
        case "switch": return CameraCommand.switchNext
        case "torch-on": return TorchCommand(on: true)
        case "torch-off": return TorchCommand(on: false)
        case "af-point":
            let x = try number("x")
            let y = try number("y")
            guard (0...1).contains(x), (0...1).contains(y) else {
                throw HTTPError(.badRequest, message: "a focus point is inside the picture (0-1)")
            }
            return AFCommand.point(x: x, y: y)
        case "af-mode":
            guard let mode = AutofocusMode(rawValue: form["value"] ?? "") else {
                throw HTTPError(.badRequest, message: "af mode is manual, auto or continuous")
            }
            return AFCommand.mode(mode)
        case "ev": return EVCommand(stops: try number("value"))
        case "flash":
            guard let mode = FlashMode(rawValue: form["value"] ?? "") else {
                throw HTTPError(.badRequest, message: "flash is off, on or auto")
            }
            return FlashCommand(mode: mode)
        case "exposure-auto": return ExposureCommand.auto
        case "exposure-manual":
            let time = try number("time")
            guard (1...100_000_000).contains(time) else {
                throw HTTPError(.badRequest, message: "exposure time is 1 to 100000000 microseconds")
            }
            return ExposureCommand.manual(timeUs: Int(time), gain: try number("gain"))
        default: throw HTTPError(.badRequest, message: "unknown camera command")
        }
    }

    /// MJPEG (multipart/x-mixed-replace) from the viewfinder stream, at most `liveFPS` frames a
    /// second, rendered only while this response is being read; a client that stops reading
    /// is disconnected after `stallGuard.limit`.
    func liveView() throws -> Response {
        guard liveViewers.add(1, ordering: .relaxed).newValue <= Self.maximumLiveViewers else {
            liveViewers.subtract(1, ordering: .relaxed)
            throw HTTPError(.serviceUnavailable, message: "too many live views open")
        }
        let boundary = "pinholeframe"
        let interval = Duration.milliseconds(1000 / max(1, liveFPS))
        let body = ResponseBody { [backend, stallGuard] writer in
            defer { liveViewers.subtract(1, ordering: .relaxed) }
            let clock = ContinuousClock()
            while !Task.isCancelled {
                let started = clock.now
                if let frame = await backend.viewfinderFrame() {
                    var part = ByteBuffer(
                        string:
                            "--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(frame.jpeg.count)\r\n"
                            + "X-Frame-Sequence: \(frame.sequence)\r\n"
                            + "X-Frame-Exposure-Start-Ns: \(frame.exposureStart.nanoseconds)\r\n\r\n"
                    )
                    part.writeBytes(frame.jpeg)
                    part.writeString("\r\n")
                    try await stallGuard.write(part, to: &writer)
                }
                try await Task.sleep(until: started + interval, clock: clock)
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "multipart/x-mixed-replace; boundary=\(boundary)", .cacheControl: "no-store",
            ],
            body: body)
    }

    /// Server-sent events: the console's event lines as they happen, each followed by the
    /// status it left (`status …`), and a comment every 15 s; a client that stops reading is
    /// disconnected after `stallGuard.limit`.
    func events() -> Response {
        let stream = backend.events()
        let body = ResponseBody { [self] writer in
            try await stallGuard.write(ByteBuffer(string: "retry: 3000\n\n"), to: &writer)
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (ticks, tick) = AsyncStream<String>.makeStream()
                group.addTask {
                    for await line in stream {
                        tick.yield("data: \(line.replacingNewlines())\n\n")
                        let status = await command(StatusCommand()).answer
                        tick.yield("data: status \(status.replacingNewlines())\n\n")
                    }
                    tick.finish()
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(15))
                        tick.yield(": keep-alive\n\n")
                    }
                }
                for await text in ticks { try await stallGuard.write(ByteBuffer(string: text), to: &writer) }
                group.cancelAll()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
