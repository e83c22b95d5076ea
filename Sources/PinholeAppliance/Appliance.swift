// The appliance: buttons, LEDs and the capture engine wired together on the event loop.

import PinholeCore
import PinholeImaging

/// The camera appliance's behaviour. Knows only protocols: any GPIO backend, any camera
/// provider, any encoder and store.
public final class Appliance {
    /// The event loop everything runs on.
    public let loop: EventLoop
    /// The board profile.
    public let board: BoardProfile
    /// The capture engine.
    public let engine: CaptureEngine
    private let gpio: any GPIOBackend
    private let store: any PhotoStore
    private var inputs: [ButtonFunction: any InputLine] = [:]
    private var interpreters: [ButtonFunction: ButtonInterpreter] = [:]
    /// Output controllers by function.
    public private(set) var outputs: [OutputFunction: LEDController] = [:]
    private var observers: [(ApplianceEvent) -> Void] = []
    /// Whether the torch is on.
    public private(set) var torchOn = false
    /// The last capture.
    public private(set) var lastCapture: CaptureResult?
    /// Problems seen since start (most recent last, at most 20).
    public private(set) var problems: [String] = []
    private var started = false

    /// Creates an appliance.
    public init(loop: EventLoop, board: BoardProfile, gpio: any GPIOBackend, cameras: any CameraProvider,
                encoder: any StillEncoder, store: any PhotoStore, software: String = "Pinhole") {
        self.loop = loop
        self.board = board
        self.gpio = gpio
        self.store = store
        self.engine = CaptureEngine(loop: loop, provider: cameras, board: board, encoder: encoder, store: store,
                                    software: software)
        engine.onEvent = { [weak self] event in self?.engineEvent(event) }
    }

    private func engineEvent(_ event: CaptureEngineEvent) {
        switch event {
        case .cameraRestarted(let camera, let silence):
            outputs[.error]?.play(.errorCode(4))
            problem("camera \(camera) sent no frame for \(Int(silence.milliseconds)) ms: restarted it")
        case .restartFailed(let camera, let reason):
            outputs[.error]?.play(.errorCode(4))
            problem("camera \(camera) could not be restarted (\(reason)): retrying")
        case .focus(let text):
            emit(.focus(text))
        }
    }

    /// Adds an observer of events.
    public func observe(_ observer: @escaping (ApplianceEvent) -> Void) {
        observers.append(observer)
    }

    private func emit(_ event: ApplianceEvent) {
        for observer in observers { observer(event) }
    }

    private func problem(_ message: String) {
        problems.append(message)
        if problems.count > 20 { problems.removeFirst() }
        emit(.problem(message))
    }

    /// Requests the lines, starts the camera and shows "ready". A missing camera is reported
    /// (error LED, event) but the appliance still runs, so the console stays usable.
    public func start() throws {
        for (function, wiring) in board.outputs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let line = try gpio.requestOutput(name: wiring.line, activeLow: wiring.activeLow)
            outputs[function] = LEDController(loop: loop, line: line)
        }
        for (function, wiring) in board.buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let interpreter = ButtonInterpreter(loop: loop, debounce: wiring.debounce) { [weak self] event in
                self?.buttonEvent(function, event)
            }
            let config = InputLineConfig(name: wiring.line, activeLow: wiring.activeLow, bias: wiring.bias)
            inputs[function] = try gpio.requestInput(config) { edge in interpreter.edge(edge) }
            interpreters[function] = interpreter
        }
        started = true
        if outputs[.torch] != nil {
            // The torch LED doubles as the flash; after a flash it returns to the torch setting.
            engine.flashDriver = { [weak self] lit in
                guard let self else { return }
                self.outputs[.torch]?.set(lit || self.torchOn)
            }
        }
        do {
            try engine.start()
            outputs[.status]?.set(true)
            if let camera = engine.current { emit(.cameraChanged(camera)) }
        } catch {
            outputs[.error]?.play(.errorCode(2))
            problem("\(error)")
        }
    }

    /// Turns every output off, stops the camera and releases the lines.
    public func shutdown() {
        engine.stop()
        for controller in outputs.values { controller.shutdown() }
        for line in inputs.values { line.release() }
        for controller in outputs.values { controller.line.release() }
        for interpreter in interpreters.values { interpreter.reset() }
        inputs.removeAll()
        interpreters.removeAll()
        outputs.removeAll()
        torchOn = false
        started = false
    }

    /// Whether a button is settling or a capture is in progress.
    public var isBusy: Bool {
        engine.isBusy || interpreters.values.contains { $0.isSettling }
    }

    /// Whether a button is currently held down (debounced).
    public func isPressed(_ function: ButtonFunction) -> Bool { interpreters[function]?.isPressed ?? false }

    // MARK: Actions

    /// Takes a photo of the frame exposing at `pressedAt` (now when nil).
    public func capture(pressedAt: Instant? = nil, completion: ((Result<CaptureResult, Error>) -> Void)? = nil) {
        outputs[.status]?.play(.busy)
        engine.capture(pressedAt: pressedAt) { [weak self] result in
            guard let self else { return }
            self.outputs[.status]?.set(self.engine.current != nil)
            switch result {
            case .success(let capture):
                self.lastCapture = capture
                self.outputs[.capture]?.play(.flash)
                self.emit(.saved(capture))
            case .failure(let error):
                self.outputs[.error]?.play(.errorCode(3))
                self.problem("capture failed: \(error)")
                self.emit(.captureFailed("\(error)"))
            }
            completion?(result)
        }
    }

    /// Switches to the next camera; the torch follows what the new camera has.
    @discardableResult
    public func switchCamera() throws -> CameraInfo {
        let camera = try engine.switchToNext()
        afterCameraChange(camera)
        return camera
    }

    /// Selects a camera by id or model.
    public func selectCamera(_ id: String) throws {
        try engine.select(id: id)
        if let camera = engine.current { afterCameraChange(camera) }
    }

    private func afterCameraChange(_ camera: CameraInfo) {
        if torchOn && !(engine.currentFitting?.torch ?? false) {
            setTorchLine(false)
        }
        emit(.cameraChanged(camera))
    }

    /// Turns the torch on or off. Fails on a camera without a torch.
    public func setTorch(_ on: Bool) throws {
        if on {
            guard let camera = engine.current else { throw CaptureError.noCamera }
            guard engine.currentFitting?.torch ?? false, outputs[.torch] != nil else {
                throw ApplianceError.noTorch(camera: camera.model)
            }
        }
        setTorchLine(on)
    }

    private func setTorchLine(_ on: Bool) {
        guard torchOn != on else { return }
        torchOn = on
        outputs[.torch]?.set(on)
        emit(.torch(on))
    }

    // MARK: Buttons

    private func buttonEvent(_ function: ButtonFunction, _ event: ButtonEvent) {
        emit(.button(function, event))
        if function == .halfPress {
            switch event {
            case .pressed: engine.beginHalfPress()
            case .released: engine.endHalfPress()
            default: break
            }
            return
        }
        guard case .pressed(let at) = event else { return }
        switch function {
        case .shutter:
            capture(pressedAt: at)
        case .switch:
            do { try switchCamera() } catch { problem("camera switch failed: \(error)") }
        case .torch:
            do { try setTorch(!torchOn) } catch { problem("\(error)") }
        case .halfPress, .tiltA, .tiltB:
            break
        }
    }

    // MARK: Status

    /// A snapshot for `status`.
    public func status() -> ApplianceStatus {
        let camera = engine.current.map { info -> ApplianceStatus.Camera in
            let size: PixelSize
            switch engine.configuration {
            case .valid(let request)?, .adjusted(let request, _)?: size = request.stillSize
            case nil: size = info.pixelArraySize
            }
            return ApplianceStatus.Camera(id: info.id, model: info.model,
                                          position: engine.position(of: info).rawValue,
                                          torch: engine.currentFitting?.torch ?? false, stillSize: size.description)
        }
        let frame = engine.lastFrame
        let last = lastCapture.map {
            ApplianceStatus.LastCapture(id: $0.photo.id, file: $0.photo.file, selection: $0.selection.rawValue,
                                        pressToSelectedMs: ($0.selectedAt - $0.pressedAt).milliseconds,
                                        pressToSavedMs: ($0.savedAt - $0.pressedAt).milliseconds)
        }
        var status = ApplianceStatus(
            board: board.name, camera: camera, cameras: engine.cameras.count, torch: torchOn,
            flash: engine.flash.mode.rawValue,
            exposureTimeUs: frame.map { Int($0.exposureTime.nanoseconds / 1000) }, gain: frame?.totalGain,
            lensPosition: frame?.lensPosition, afMode: engine.focus.status.mode,
            afState: engine.focus.status.state.rawValue, lux: frame?.lux, photos: try? store.photoCount(), storageFreeBytes: store.freeBytes(),
            lastCapture: last, busy: isBusy, frames: engine.framesReceived, problems: problems)
        engine.fillStatus(&status)
        return status
    }
}

/// Errors of the appliance's own actions.
public enum ApplianceError: Error, CustomStringConvertible {
    /// The running camera has no torch.
    case noTorch(camera: String)

    public var description: String {
        switch self {
        case .noTorch(let camera):
            return "camera \(camera) has no torch: switch to a camera with a torch first"
        }
    }
}
