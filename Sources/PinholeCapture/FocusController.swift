// Focus orchestration: AF modes, the AF point, scans (the camera's AF or Pinhole's contrast AF), timeouts.

import PinholeCore

/// Errors of focus requests, each saying what to do instead.
public enum FocusError: Error, CustomStringConvertible, Equatable {
    /// The running camera's lens cannot move.
    case fixedFocus(camera: String)
    /// A point outside 0…1.
    case pointOutOfRange(x: Double, y: Double)
    /// `af trigger` in manual mode.
    case manualMode

    /// A readable form, for messages and logs.
    public var description: String {
        switch self {
        case .fixedFocus(let camera):
            return
                "camera \(camera) does not support focus control: it has a fixed-focus lens (switch to a camera with a motorized lens)"
        case .pointOutOfRange(let x, let y):
            return "AF point (\(x), \(y)) is outside the frame: give X and Y between 0 and 1"
        case .manualMode:
            return
                "AF mode is manual: set `af mode auto` or `af mode continuous` first, or move the lens with `lens D`"
        }
    }
}

/// Runs focus for the current camera.
///
/// Cameras whose IPA has an AF algorithm (they report AfMode) are driven through libcamera's
/// AF controls and report their AfState. Cameras with a movable lens but no AF algorithm are
/// focused by Pinhole itself: a `ContrastAutofocus` scan over viewfinder frames. Fixed-focus
/// cameras report mode "fixed". A scan that finds nothing or outlasts `scanTimeout` ends
/// `failed` with the lens at the fallback position (the camera's default lens position, else
/// 1 dioptre: about 1 m to infinity acceptably sharp on small sensors).
///
/// After a point focus (a scan at a point other than the centre) the viewfinder is watched;
/// when the scene changes, focus returns to continuous AF at the centre.
public final class FocusController {
    enum Method: String { case camera, contrast, none }

    let loop: EventLoop
    var camera: CameraInfo?
    var method = Method.none
    var send: ([String: ControlValue]) throws -> Void = { _ in }

    /// The AF mode asked for (kept across camera switches).
    public internal(set) var mode = AutofocusMode.continuous
    /// Where focusing stands.
    public internal(set) var state = AutofocusState.idle
    /// The AF point, normalized.
    public internal(set) var point = (x: 0.5, y: 0.5)
    /// The size of the AF window around the point, normalized.
    public var windowSize = 0.12
    /// Search range.
    public internal(set) var range = AutofocusRange.normal
    /// Scan speed.
    public internal(set) var speed = AutofocusSpeed.normal
    /// The longest a scan may take before it fails and the lens goes to the fallback position.
    public var scanTimeout: Duration = .seconds(3)
    /// The lens position of the last frame, in dioptres.
    public internal(set) var lensPosition: Double?
    /// Frames between viewfinder checks for scene changes.
    public var monitorInterval = 8
    /// Scans started since creation.
    public internal(set) var scans = 0
    /// Viewfinder images examined since creation (scans and scene watching).
    public internal(set) var viewfinderReads = 0
    /// Called when focus changes on its own (a scene change returned it to continuous AF).
    public var onEvent: ((_ mode: AutofocusMode, _ reason: FocusChangeReason) -> Void)?
    /// Called with the controls a user's request set (lens, mode, range, speed), so that the
    /// next press waits for a frame that shows them.
    var onUserChange: (([String: ControlValue]) -> Void)?
    /// Called after a user's request changed a setting that is saved (mode, range, speed, lens).
    var onSettingsChange: (() -> Void)?
    /// Where the user put the lens last (manual focus).
    var lensTarget: Double?

    // Scan state.
    var scan: ContrastAutofocus?
    var scanTarget: Double?
    var settlingTo: (position: Double, found: Bool)?
    var framesSinceMove = 0
    var sawCameraScanning = false
    var scanFrames = 0
    var timeoutTimer: TimerID?
    var waiters: [(AutofocusState) -> Void] = []
    // Monitoring.
    var pointLocked = false
    var holding = false
    var referenceSignature: [Double]?
    var referenceSharpness: Double?
    var framesSinceCheck = 0

    /// Creates a controller.
    public init(loop: EventLoop) { self.loop = loop }

    /// What status reports.
    public var status: FocusStatus {
        FocusStatus(
            mode: method == .none ? "fixed" : mode.rawValue, state: state, pointX: point.x,
            pointY: point.y, method: method.rawValue)
    }

    /// Whether a scan is under way.
    public var isScanning: Bool { state == .scanning }

    /// Whether someone is waiting for focus: a trigger's answer, or a half-press.
    public var isRequested: Bool { !waiters.isEmpty || holding }

    /// The AF window around the point, kept inside the frame.
    public var window: NormalizedRect {
        let size = windowSize
        let x = min(1 - size, max(0, point.x - size / 2))
        let y = min(1 - size, max(0, point.y - size / 2))
        return NormalizedRect(x: x, y: y, width: size, height: size)
    }

    var fallbackLensPosition: Double {
        guard let range = camera?.controls["LensPosition"] else { return 1 }
        return min(range.max, max(range.min, range.defaultValue ?? 1))
    }

    /// Lens positions a contrast scan searches for the current range.
    var contrastLimits: ClosedRange<Double> {
        let lens = camera?.controls["LensPosition"] ?? ControlRange(min: 0, max: 10)
        switch range {
        case .normal: return lens.min...min(lens.max, max(lens.min, 4))
        case .macro: return min(lens.max, 3)...lens.max
        case .full: return lens.min...lens.max
        }
    }

    // MARK: Camera

    /// A camera started: focus it the way the mode asks. `send` sets controls on it.
    func attach(_ info: CameraInfo, send: @escaping ([String: ControlValue]) throws -> Void) {
        endScan(with: .idle, notify: true)
        camera = info
        self.send = send
        method = info.hasAutofocusAlgorithm ? .camera : info.hasFocusControl ? .contrast : .none
        state = .idle
        lensPosition = nil
        pointLocked = false
        referenceSignature = nil
        referenceSharpness = nil
        guard method != .none else { return }
        if method == .camera {
            try? send(cameraWindowControls())
            try? send(["AfMode": .int(mode == .manual ? 0 : mode == .auto ? 1 : 2)])
            if let rangeControl = info.controls["AfRange"], rangeControl.max >= Double(range.libcameraValue) {
                try? send(["AfRange": .int(range.libcameraValue)])
            }
        }
        if mode == .continuous { startScan() }
    }

    /// The camera stopped.
    func detach() {
        endScan(with: .idle, notify: true)
        camera = nil
        method = .none
    }

    // MARK: Requests

    /// Sets the AF mode.
    public func setMode(_ newMode: AutofocusMode) throws {
        try requireFocus()
        if method == .camera {
            try send(["AfMode": .int(newMode == .manual ? 0 : newMode == .auto ? 1 : 2)])
        }
        endScan(with: .idle, notify: true)
        mode = newMode
        pointLocked = false
        state = .idle
        if newMode == .continuous { startScan() }
        onSettingsChange?()
    }

    /// Moves the lens to `dioptres` (0 is infinity) and sets manual mode.
    public func setLens(_ dioptres: Double) throws {
        try moveLens(dioptres, byUser: true)
    }

    /// Moves the lens in manual focus; `byUser`: a request (the next press waits for a frame
    /// with the lens there), not a restore as a camera starts.
    func moveLens(_ dioptres: Double, byUser: Bool) throws {
        try requireFocus()
        let controls: [String: ControlValue] =
            method == .camera
            ? ["AfMode": .int(0), "LensPosition": .double(dioptres)] : ["LensPosition": .double(dioptres)]
        try send(controls)
        if byUser { onUserChange?(controls) }
        lensTarget = dioptres
        endScan(with: .idle, notify: true)
        mode = .manual
        pointLocked = false
        state = .idle
        onSettingsChange?()
    }

    /// Sets the AF point (normalized 0…1). In continuous mode focus moves there at once; in
    /// auto mode the next scan (`af trigger`, half-press) uses it.
    public func setPoint(x: Double, y: Double) throws {
        guard (0...1).contains(x), (0...1).contains(y) else { throw FocusError.pointOutOfRange(x: x, y: y) }
        try requireFocus()
        let previous = point
        point = (x, y)
        if method == .camera {
            do { try send(cameraWindowControls()) } catch {
                point = previous
                throw error
            }
        }
        if mode == .continuous { restartScan() }
    }

    /// Sets the search range (the camera must report AfRange when it runs its own AF).
    public func setRange(_ newRange: AutofocusRange) throws {
        try requireFocus()
        if method == .camera { try send(["AfRange": .int(newRange.libcameraValue)]) }
        range = newRange
        onSettingsChange?()
    }

    /// Sets the scan speed (the camera must report AfSpeed when it runs its own AF).
    public func setSpeed(_ newSpeed: AutofocusSpeed) throws {
        try requireFocus()
        if method == .camera { try send(["AfSpeed": .int(newSpeed.libcameraValue)]) }
        speed = newSpeed
        onSettingsChange?()
    }

    /// Runs one scan (joining one under way) and calls `completion` with the resulting state.
    public func trigger(completion: @escaping (AutofocusState) -> Void) throws {
        try requireFocus()
        guard mode != .manual else { throw FocusError.manualMode }
        waiters.append(completion)
        if state != .scanning || timeoutTimer == nil { restartScan() }
    }

    /// Half-press: focus once (auto and continuous modes), then hold focus until `release`.
    func hold() {
        holding = true
        guard method != .none, mode != .manual, state != .scanning else { return }
        startScan()
    }

    /// Half-press released: continuous AF follows the scene again.
    func release() {
        holding = false
    }

    private func requireFocus() throws {
        guard let camera else { throw CaptureError.noCamera }
        guard method != .none else { throw FocusError.fixedFocus(camera: camera.model) }
    }

    func cameraWindowControls() -> [String: ControlValue] {
        guard let controls = camera?.controls else { return [:] }
        let centred = point.x == 0.5 && point.y == 0.5
        if controls["AfWindows"] == nil || controls["AfMetering"] == nil {
            if centred { return [:] }
            return ["AfWindows": .rectangles([window])]  // the camera's error names the control
        }
        return ["AfMetering": .int(centred ? 0 : 1), "AfWindows": .rectangles([window])]
    }
}
