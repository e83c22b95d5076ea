// The appliance: buttons, LEDs and the capture engine wired together on the event loop.

import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeField
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
    let gpio: any GPIOBackend
    let store: any PhotoStore
    /// The board's buttons: requested lines and their interpreters.
    let buttons = ButtonPanel()
    /// Output controllers by function.
    public private(set) var outputs: [OutputFunction: LEDController] = [:]
    /// The named status patterns shown on the outputs.
    public private(set) var indicator = StatusIndicator(outputs: [:])
    var chords: ChordDetector?
    private var observers: [(ApplianceEvent) -> Void] = []
    /// The two-stage shutter's state.
    public internal(set) var shutter = TwoStageShutter()
    /// The tilt sensor, when the board has one.
    public internal(set) var tilt: TiltSensor?
    /// Whether the torch is on.
    public private(set) var torchOn = false
    /// The last capture.
    public internal(set) var lastCapture: CaptureResult?
    /// The gpsd client, when `[gps] gpsd` is configured (see `attachField`).
    public internal(set) var gps: GPSTracker?
    /// Clock trust (kernel status, GPS time), when attached (see `attachField`).
    public internal(set) var clockTrust: ClockTrustMonitor?
    /// Problems seen since start (most recent last, at most 20).
    public private(set) var problems: [String] = []
    /// Called when a chord asks for a safe shutdown, after every output has been turned off.
    /// The executable stops its loop (and powers off when the request says so).
    public var onShutdownRequest: ((ShutdownRequest) -> Void)?
    /// The shutdown asked for by a chord, if any.
    public private(set) var shutdownRequest: ShutdownRequest?
    /// Free bytes under which storage counts as low (status LED blinks slowly).
    public var lowStorageBytes: Int64 = 256 << 20
    /// Where camera settings are saved and restored from (nil: they are not kept).
    public var settingsFile: SettingsFile?
    /// Saves of the camera settings so far, and why the latest failed (nil: it succeeded), so
    /// that `set camera.*` can answer an error instead of "saved" when its save failed.
    public private(set) var settingsSaves: (count: Int, failure: String?) = (0, nil)
    /// Frames skipped in bursts because earlier shots were still being encoded and stored
    /// (`engine.maxFramesInFlight` of them).
    public internal(set) var burstSkipped = 0
    /// Burst shots taken since start.
    public internal(set) var burstShotsTaken = 0
    var capturesInFlight = 0
    private var started = false
    /// When `start()` ran: the loop's instant and the wall time.
    var startedAt: (Instant, WallTime)?
    /// Camera standby (`[camera] standby_after`).
    public let standby: CameraStandby
    /// The timelapse (set up by whoever wires the appliance, with its state file).
    public var timelapse: TimelapseController?
    /// Records clips, when the board is set up for it (`attachRecorder`).
    public internal(set) var recorder: ClipRecorder?
    /// `[capture] live`: every photo is paired with the pre-roll ring's clip around it (a Live Photo).
    public var livePhotos = false
    /// The board's trigger inputs (requested at start).
    public private(set) var triggers: TriggerController?
    /// `[library] when_full`: stop, or recycle the oldest photos.
    public let storagePolicy = StoragePolicy()
    /// How long `start()` lets the camera take to open before it reports it missing (it keeps
    /// waiting for that open, and tries again after a failed one).
    public var cameraOpenDeadline: Duration = .seconds(10)
    /// How long after a failed open the camera is tried again.
    public var cameraRetryInterval: Duration = .seconds(30)
    /// Why the camera is missing (nil: it runs, or is still within its deadline).
    public internal(set) var cameraMissing: String?
    /// The deadline and retry timers of the camera's opening.
    var cameraStartup = CameraStartupTimers()

    /// Creates an appliance.
    public init(
        loop: EventLoop, board: BoardProfile, gpio: any GPIOBackend, cameras: any CameraProvider,
        encoder: any StillEncoder, store: any PhotoStore, software: String = "Pinhole"
    ) {
        self.loop = loop
        self.board = board
        self.gpio = gpio
        self.store = store
        self.engine = CaptureEngine(
            loop: loop, provider: cameras, board: board, encoder: encoder, store: store,
            software: software)
        standby = CameraStandby(loop: loop, engine: engine)
        engine.delegate = self
        standby.isBusy = { [weak self] in self?.isBusy ?? false }
        standby.onChange = { [weak self] text in self?.emit(.notice(text)) }
    }

    func engineEvent(_ event: CaptureEngineEvent) {
        switch event {
        case .cameraRestarted(let camera, let silence):
            outputs[.error]?.play(.errorCode(4))
            problem("camera \(camera) sent no frame for \(Int(silence.milliseconds)) ms: restarted it")
        case .restartFailed(let camera, let reason):
            outputs[.error]?.play(.errorCode(4))
            problem("camera \(camera) could not be restarted (\(reason)): retrying")
        case .focusChanged(let mode, let reason):
            emit(.focusChanged(mode: mode, reason: reason))
        case .settingRefused(let text):
            problem("setting not restored: \(text)")
        case .camera(let notice):
            cameraSessionNotice(notice)
        }
    }

    /// Adds an observer of events.
    public func observe(_ observer: @escaping (ApplianceEvent) -> Void) {
        observers.append(observer)
    }

    func emit(_ event: ApplianceEvent) {
        for observer in observers { observer(event) }
    }

    /// Records a problem for `log` and the status, and reports it to observers.
    public func problem(_ message: String) {
        problems.append(message)
        if problems.count > 20 { problems.removeFirst() }
        emit(.problem(message))
    }

    /// Drives every output off (before anything else: a crashed predecessor may have left a
    /// torch on), requests the buttons, begins opening the camera (see `openCamera`) and
    /// returns without waiting for it. A missing camera is reported (error code on the error
    /// LED, event, `status`) but the appliance still runs, so the console stays usable. A line that cannot be requested is an error; every line
    /// requested so far is then released, off.
    public func start() throws {
        guard !started else { return }
        let lines = try OutputSafety.requestAllOff(board: board, gpio: gpio)
        outputs = lines.mapValues { LEDController(loop: loop, line: $0) }
        indicator = StatusIndicator(outputs: outputs)
        tilt = board.tilt.map { TiltSensor(mapping: $0) }
        chords = ChordDetector(loop: loop, chords: board.chords) { [weak self] chord in
            self?.chordCompleted(chord)
        }
        started = true
        startedAt = (loop.now, loop.wallNow)
        restoreSettings()
        do {
            try requestButtons()
            // A switch left at video is a mode, not a press: shown from the start.
            if captureMode == .video {
                indicator.show(.videoMode(true))
                recorder?.keepEncoderReady(true)
            }
            let triggers = TriggerController(appliance: self, triggers: board.triggers, gpio: gpio)
            self.triggers = triggers
            try triggers.start()
        } catch {
            shutdown()
            throw error
        }
        // The camera opens without blocking the loop: whoever runs the console starts it
        // right after, and it answers while a camera is slow or hung at open.
        openCamera()
        checkStorage()
    }

    private func restoreSettings() {
        guard let settingsFile else { return }
        do {
            if let saved = try settingsFile.load() { engine.restore(saved) }
        } catch {
            problem("settings not restored (\(error)): using the defaults")
        }
    }

    private func requestButtons() throws {
        let active = try buttons.request(board.buttons, gpio: gpio, loop: loop) {
            [weak self] function, event in
            self?.buttonEvent(function, event)
        }
        // A tilt switch already closed is a state, not a press.
        for function in active { tilt?.set(function, closed: true) }
    }

    /// Turns every output off, stops the camera and releases the lines. Safe to call twice.
    public func shutdown() {
        cancelCameraStartup()
        standby.cancel()
        triggers?.stop()
        triggers = nil
        engine.stop()
        chords?.reset()
        buttons.release()
        for controller in outputs.values {
            controller.shutdown()
            controller.line.release()
        }
        outputs.removeAll()
        indicator = StatusIndicator(outputs: [:])
        shutter = TwoStageShutter()
        torchOn = false
        started = false
    }

    /// Whether a button is settling or a capture is in progress.
    public var isBusy: Bool {
        engine.isBusy || capturesInFlight > 0 || buttons.isSettling
    }

    /// Whether a button is currently held down (debounced).
    public func isPressed(_ function: ButtonFunction) -> Bool { buttons.isPressed(function) }

    // MARK: Actions

    /// Takes a photo of the frame exposing at `pressedAt` (now when nil), a Live Photo when
    /// `livePhotos` is on.
    public func capture(
        pressedAt: Instant? = nil, completion: ((Result<CaptureResult, Error>) -> Void)? = nil
    ) {
        capture(live: livePhotos, pressedAt: pressedAt, completion: completion)
    }

    /// Takes a photo of the frame exposing at `pressedAt` (now when nil). With `live`, the
    /// saved photo is then paired with its motion clip and `motion` gets the outcome about
    /// 1.5 s later (see `pairMotion`).
    public func capture(
        live: Bool, pressedAt: Instant? = nil, completion: ((Result<CaptureResult, Error>) -> Void)? = nil,
        motion: ((Result<LiveMotion, any Error>) -> Void)? = nil
    ) {
        noteActivity(wakeFor: "capture")
        capturesInFlight += 1
        indicator.show(.busy(true))
        // The ring keeps the window's start while the still is saved (ClipRecorder.holdWindow).
        let held = recorder.flatMap { recorder in
            live && recorder.keepsLivePhotos
                ? (recorder, recorder.holdWindow(pressedAt: pressedAt ?? loop.now)) : nil
        }
        engine.capture(pressedAt: pressedAt) { [weak self] result in
            guard let self else {
                if let held { held.0.releaseWindow(held.1) }
                return
            }
            self.capturesInFlight -= 1
            self.indicator.show(.busy(false))
            switch result {
            case .success(let capture):
                self.lastCapture = capture
                self.indicator.show(.saved)
                self.emit(.saved(capture))
                self.checkStorage()
                if live {
                    self.pairMotion(capture) {
                        if let held { held.0.releaseWindow(held.1) }
                        motion?($0)
                    }
                } else if let held {
                    held.0.releaseWindow(held.1)
                }
            case .failure(let error):
                if let held { held.0.releaseWindow(held.1) }
                self.checkStorage()
                self.indicator.show(.error(self.indicator.lowStorage ? .storage : .captureFailed))
                self.problem("capture failed: \(error)")
                self.emit(.captureFailed(error))
            }
            completion?(result)
        }
    }

    /// Looks at the free space and shows "low storage" when under `lowStorageBytes`.
    public func checkStorage() {
        guard let free = store.freeBytes() else { return }
        let low = free < lowStorageBytes
        if low != indicator.lowStorage { indicator.show(.lowStorage(low)) }
        applyStoragePolicy(free: free)
    }

    /// Switches to the next camera and returns it (an error at once: no camera, or the camera
    /// busy); the switch itself goes through the camera's session, and `completion` runs on
    /// the loop once the new camera streams (the torch follows what it has), or with the error.
    @discardableResult
    public func switchCamera(then completion: @escaping ((any Error)?) -> Void = { _ in }) throws
        -> CameraInfo
    {
        try engine.switchToNext { [weak self] error in
            self?.afterCameraChange(error)
            completion(error)
        }
    }

    /// Selects a camera by id or model; `completion` as for `switchCamera`.
    public func selectCamera(_ id: String, then completion: @escaping ((any Error)?) -> Void = { _ in })
        throws
    {
        try engine.select(id: id) { [weak self] error in
            self?.afterCameraChange(error)
            completion(error)
        }
    }

    private func afterCameraChange(_ error: (any Error)?) {
        guard error == nil, let camera = engine.current else {
            indicator.show(.noCamera)
            problem("camera switch failed: \(error.map { "\($0)" } ?? "no camera")")
            return
        }
        if torchOn && !(engine.currentFitting?.torch ?? false) {
            setTorchLine(false)
        }
        indicator.show(.ready)
        emit(.cameraChanged(camera))
    }

    /// Turns the torch on or off. The torch is an LED: it lights with no camera running (none
    /// found, or one that died). Fails on a board without a torch output, and while a camera
    /// whose scene the torch does not light (no torch in its fitting) is running.
    public func setTorch(_ on: Bool) throws {
        if on {
            guard outputs[.torch] != nil else { throw ApplianceError.noTorchOutput }
            if let camera = engine.current, !(engine.currentFitting?.torch ?? false) {
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

    // MARK: Shutdown chord

    private func chordCompleted(_ chord: Chord) {
        switch chord.action {
        case .shutdown:
            let names = chord.buttons.map(\.rawValue).sorted().joined(separator: " + ")
            let seconds = Double(chord.hold.milliseconds) / 1000
            let request = ShutdownRequest(
                reason: "\(names) held \(seconds.formatted1()) s", powerOff: chord.powerOff)
            shutdownRequest = request
            shutdown()
            onShutdownRequest?(request)
        }
    }
}

extension Appliance: CaptureEngineDelegate {
    /// The torch LED doubles as the flash.
    public func captureEngineHasFlashOutput(_ engine: CaptureEngine) -> Bool { outputs[.torch] != nil }

    /// After a flash the torch returns to the torch setting.
    public func captureEngine(_ engine: CaptureEngine, setFlash lit: Bool) {
        outputs[.torch]?.set(lit || torchOn)
    }

    /// The tilt sensor's body rotation (0 without one).
    public func captureEngineBodyRotation(_ engine: CaptureEngine) -> Int { tilt?.rotation ?? 0 }

    /// Saves the settings to the settings file (a failure is a problem, not a crash).
    public func captureEngine(_ engine: CaptureEngine, settingsChanged settings: SavedSettings) {
        guard let settingsFile else { return }
        do {
            try settingsFile.save(settings)
            settingsSaves = (settingsSaves.count + 1, nil)
        } catch {
            settingsSaves = (settingsSaves.count + 1, "\(error)")
            problem("settings not saved: \(error)")
        }
    }

    /// Restarts and focus changes become problems and events.
    public func captureEngine(_ engine: CaptureEngine, report event: CaptureEngineEvent) {
        engineEvent(event)
    }
}

/// A safe shutdown asked for by a chord.
public struct ShutdownRequest: Sendable, Hashable {
    /// Which chord, in words ("shutter + torch held 5 s").
    public var reason: String
    /// Whether the system should power off too.
    public var powerOff: Bool
}

/// Errors of the appliance's own actions.
public enum ApplianceError: Error, CustomStringConvertible {
    /// The running camera has no torch.
    case noTorch(camera: String)
    /// The board has no torch output at all.
    case noTorchOutput

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .noTorch(let camera):
            return "camera \(camera) has no torch: switch to a camera with a torch first"
        case .noTorchOutput:
            return "this board has no torch LED: wire one and name it in the board profile's [leds.torch]"
        }
    }
}

extension Double {
    /// At most one decimal, without a trailing ".0".
    func formatted1() -> String {
        let tenths = (self * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0
            ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
