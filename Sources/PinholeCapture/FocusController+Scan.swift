// Focus scans frame by frame, their timeout and fallback, and watching the scene afterwards.

import PinholeCore

extension FocusController {
    /// Starts a scan with the current method.
    func startScan() {
        guard method != .none else { return }
        endScan(with: .idle, notify: false)
        scans += 1
        state = .scanning
        scanFrames = 0
        sawCameraScanning = false
        referenceSignature = nil
        referenceSharpness = nil
        timeoutTimer = loop.schedule(after: scanTimeout) { [weak self] in self?.scanTimedOut() }
        switch method {
        case .camera:
            if mode == .auto { try? send(["AfTrigger": .int(0)]) }
        case .contrast:
            var newScan = ContrastAutofocus(range: contrastLimits, speed: speed)
            let step = newScan.start()
            scan = newScan
            perform(step)
        case .none:
            break
        }
    }

    /// Abandons any scan and starts a new one.
    func restartScan() {
        let pending = waiters
        waiters = []
        startScan()
        waiters = pending
    }

    /// Ends the scan (if any) in `newState`; completes waiters when `notify`.
    func endScan(with newState: AutofocusState, notify: Bool) {
        if let timeoutTimer { loop.cancel(timeoutTimer) }
        timeoutTimer = nil
        let wasScanning = state == .scanning
        scan = nil
        scanTarget = nil
        settlingTo = nil
        if wasScanning { state = newState }
        guard notify else { return }
        let done = waiters
        waiters = []
        for waiter in done { waiter(state) }
    }

    private func scanTimedOut() {
        timeoutTimer = nil
        guard state == .scanning else { return }
        if method == .camera { try? send(["AfTrigger": .int(1)]) }
        fallBack()
    }

    /// Ends a scan as failed with the lens at the fallback position.
    private func fallBack() {
        if method == .camera {
            try? send(["AfMode": .int(0), "LensPosition": .double(fallbackLensPosition)])
            if mode != .manual { try? send(["AfMode": .int(mode == .auto ? 1 : 2)]) }
        } else {
            try? send(["LensPosition": .double(fallbackLensPosition)])
        }
        endScan(with: .failed, notify: true)
        scanEnded()
    }

    private func perform(_ step: ContrastAutofocus.Step) {
        switch step {
        case .measure(let position):
            scanTarget = position
            framesSinceMove = 0
            try? send(["LensPosition": .double(position)])
        case .finished(let position, let found):
            let final = found ? position : fallbackLensPosition
            scanTarget = final
            settlingTo = (final, found)
            framesSinceMove = 0
            try? send(["LensPosition": .double(final)])
        }
    }

    // MARK: Frames

    /// Every frame of the running camera passes here (on the loop).
    func frameArrived(_ frame: any CameraFrame) {
        let metadata = frame.metadata
        if let lens = metadata.lensPosition { lensPosition = lens }
        guard method != .none else { return }
        if state == .scanning {
            scanFrames += 1
            switch method {
            case .camera: cameraScanFrame(metadata)
            case .contrast: contrastScanFrame(frame)
            case .none: break
            }
            return
        }
        if method == .camera, mode == .continuous, !holding,
            let reported = metadata.afState.flatMap(AutofocusState.init(libcamera:))
        {
            state = reported
        }
        monitor(frame)
    }

    private func cameraScanFrame(_ metadata: FrameMetadata) {
        guard let reported = metadata.afState.flatMap(AutofocusState.init(libcamera:)) else { return }
        if reported == .scanning { sawCameraScanning = true }
        let settled = reported == .focused || reported == .failed
        if settled && (sawCameraScanning || mode == .continuous || scanFrames > 4) {
            endScan(with: reported, notify: true)
            scanEnded()
        }
    }

    private func contrastScanFrame(_ frame: any CameraFrame) {
        guard let target = scanTarget else { return }
        framesSinceMove += 1
        let arrived = frame.metadata.lensPosition.map { abs($0 - target) < 0.02 } ?? (framesSinceMove >= 3)
        guard arrived else { return }
        if let settling = settlingTo {
            endScan(with: settling.found ? .focused : .failed, notify: true)
            scanEnded()
            return
        }
        guard var current = scan, let image = try? frame.viewfinderImage() else { return }
        viewfinderReads += 1
        let sharpness = SharpnessMeter.sharpness(of: image, in: window)
        let step = current.record(sharpness: sharpness, at: target)
        scan = current
        perform(step)
    }

    /// After a scan: point focus arms the scene-change watch.
    private func scanEnded() {
        pointLocked = !(point.x == 0.5 && point.y == 0.5)
        framesSinceCheck = monitorInterval  // take references on the next frame
    }

    // MARK: Watching the scene

    private var needsMonitoring: Bool {
        guard !holding else { return false }
        if pointLocked { return true }
        return mode == .continuous && method == .contrast
    }

    private func monitor(_ frame: any CameraFrame) {
        guard needsMonitoring, state == .focused || state == .failed else { return }
        framesSinceCheck += 1
        guard framesSinceCheck >= monitorInterval else { return }
        framesSinceCheck = 0
        guard let image = try? frame.viewfinderImage() else { return }
        viewfinderReads += 1
        let signature = SharpnessMeter.signature(of: image)
        let sharpness = SharpnessMeter.sharpness(of: image, in: window)
        guard let reference = referenceSignature, let referenceSharp = referenceSharpness else {
            referenceSignature = signature
            referenceSharpness = sharpness
            return
        }
        let changed = SharpnessMeter.difference(signature, reference) > 0.08
        let blurred = mode == .continuous && sharpness < 0.6 * referenceSharp
        guard changed || blurred else { return }
        if pointLocked && changed {
            pointLocked = false
            point = (0.5, 0.5)
            if method == .camera { try? send(cameraWindowControls()) }
            if mode != .continuous {
                mode = .continuous
                if method == .camera { try? send(["AfMode": .int(2)]) }
            }
            onEvent?(mode, .sceneChanged)
        }
        startScan()
    }
}
