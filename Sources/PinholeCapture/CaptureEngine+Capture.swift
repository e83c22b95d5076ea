// Presses and frames through the capture machine, and the actions it asks for: encode, store, flash, fail.

import PinholeCore
import PinholeImaging

/// What one capture needs besides its frame.
public struct CaptureOptions: Sendable, Hashable {
    /// When the shutter was pressed (its first edge); nil: now.
    public var pressedAt: Instant?
    /// The flash mode for this shot only; nil: the engine's flash policy.
    public var flash: FlashMode?

    /// Creates options.
    public init(pressedAt: Instant? = nil, flash: FlashMode? = nil) {
        self.pressedAt = pressedAt
        self.flash = flash
    }
}

/// A request's completion and timer, held by the engine while the machine decides.
struct CaptureRequestState {
    var completion: (Result<CaptureResult, Error>) -> Void
    var timeout: TimerID?
    var camera: String
    /// When the request began waiting for its frame (for the error that says how long).
    var waitingSince: Instant?
    /// Whether its wait was started again for a restarted camera.
    var waitedThroughRestart = false
}

extension CaptureEngine {
    func frameArrived(_ frame: any CameraFrame) {
        framesReceived += 1
        standby.frameArrived(at: loop.now)
        lastFrame = frame.metadata
        watchdog.frameArrived(exposure: frame.metadata.exposureTime)
        focus.frameArrived(frame)
        onVideoFrame?(frame)
        let aeHeld = exposure.isManual || exposureLocked
        perform(
            machine.frameArrived(frame, aeHeld: aeHeld, maxSettleFrames: flash.maxSettleFrames, now: loop.now)
        )
    }

    /// Captures the frame that was exposing at `pressedAt` (now if nil) and stores it; with
    /// the flash firing, the first frame wholly lit by it instead.
    public func capture(
        pressedAt: Instant? = nil, completion: @escaping (Result<CaptureResult, Error>) -> Void
    ) {
        capture(CaptureOptions(pressedAt: pressedAt), completion: completion)
    }

    /// Captures one photo with `options`.
    public func capture(
        _ options: CaptureOptions, completion: @escaping (Result<CaptureResult, Error>) -> Void
    ) {
        guard device != nil, let camera = current else {
            completion(.failure(CaptureError.noCamera))
            return
        }
        nextTicket += 1
        let ticket = CaptureTicket(nextTicket)
        requests[ticket] = CaptureRequestState(completion: completion, timeout: nil, camera: camera.model)
        var policy = flash
        if let mode = options.flash { policy.mode = mode }
        var press = CaptureMachine.Press(ticket: ticket, pressedAt: options.pressedAt ?? loop.now)
        // Flash auto is decided by the frame the photo would be: its own metering, not an
        // earlier frame's (which lags a change of light).
        if policy.mode == .auto, hasFlash { press.autoFlash = policy }
        let fire = policy.mode == .on && hasFlash
        perform(machine.press(press, fireFlash: fire, now: loop.now))
    }

    /// Carries out what the machine decided, in order.
    func perform(_ actions: [CaptureMachine.Action]) {
        for action in actions {
            switch action {
            case .release(let frame):
                frame.release()
            case .process(let frame, let press, let selection, let flashFired):
                process(frame, press: press, selection: selection, flashFired: flashFired)
            case .armTimeout(let ticket):
                requests[ticket]?.waitingSince = loop.now
                waitForFrame(ticket, atMost: frameWait)
            case .cancelTimeout(let ticket):
                if let timer = requests[ticket]?.timeout { loop.cancel(timer) }
                requests[ticket]?.timeout = nil
            case .setFlash(let lit):
                delegate?.captureEngine(self, setFlash: lit)
            case .fail(let ticket, let failure):
                guard let request = requests.removeValue(forKey: ticket) else { continue }
                if let timer = request.timeout { loop.cancel(timer) }
                let waited = loop.now - (request.waitingSince ?? loop.now)
                request.completion(.failure(error(for: failure, camera: request.camera, waited: waited)))
            case .burstEnded(let ticket, let report):
                burstEnded(ticket, report: report)
            }
        }
    }

    /// How long a capture pressed now waits for its frame: `frameTimeout`, and longer by as
    /// much as the watchdog, whose timeout follows the camera's frame gaps, takes longer than
    /// its shortest timeout to notice a stall. A press during a stall is so served by the
    /// restarted camera whatever the camera's rate: 4 s at 30 fps, about 8 s for vimc
    /// under emulation (frames 1.3 s apart).
    var frameWait: Duration {
        max(frameTimeout, frameTimeout + watchdog.rhythmTimeout - watchdog.timeout)
    }

    /// (Re)starts `ticket`'s wait for its frame: it fails if none came within `wait`.
    func waitForFrame(_ ticket: CaptureTicket, atMost wait: Duration) {
        guard let request = requests[ticket] else { return }
        if let timer = request.timeout { loop.cancel(timer) }
        requests[ticket]?.timeout = loop.schedule(after: wait) { [weak self] in
            guard let self else { return }
            self.requests[ticket]?.timeout = nil
            self.perform(self.machine.timedOut(ticket))
        }
    }

    /// The watchdog restarted the camera: captures still waiting for a frame wait for the
    /// restarted camera's, as long as a capture pressed now would, through one restart each
    /// (a camera that restarts and still sends nothing fails them).
    func capturesWaitForTheRestartedCamera() {
        for (ticket, request) in requests where request.timeout != nil && !request.waitedThroughRestart {
            requests[ticket]?.waitedThroughRestart = true
            waitForFrame(ticket, atMost: frameWait)
        }
    }

    private func error(for failure: CaptureMachine.Failure, camera: String, waited: Duration) -> CaptureError
    {
        switch failure {
        case .noFrame: return .noFrame(camera: camera, waited: waited)
        case .flashBusy: return .failed("a flash capture is already under way: press again once it is saved")
        case .stopped: return .noCamera
        case .burstBusy: return .failed("a burst is already under way: wait for its answer")
        }
    }

    /// Encodes and stores `frame` off the loop; the request's completion (or the burst's)
    /// gets the outcome.
    ///
    /// A pipeline: the frame's pixels are copied out on one of the loop's parallel threads and
    /// its buffer goes straight back to the camera; the copy is encoded on a parallel thread
    /// (one per core, so a burst's shots are encoded side by side) straight into the store's
    /// file (`PhotoStore.write`), so the whole JPEG is never in memory beside the frame; the
    /// photo is indexed on the loop's worker, one photo after the other. The frame counts in
    /// flight until its encode ends, then as waiting until the photo is saved (`CaptureMachine`).
    func process(
        _ frame: any CameraFrame, press: CaptureMachine.Press, selection: FrameSelection, flashFired: Bool
    ) {
        let ticket = press.ticket
        let finish: ((Result<CaptureResult, Error>) -> Void)?
        if press.shot > 0, bursts[ticket] != nil {
            burstShotStarted(ticket, shot: press.shot)
            finish = { [weak self] result in self?.burstShotDone(ticket, shot: press.shot, result: result) }
        } else {
            finish = press.shot > 0 ? nil : requests.removeValue(forKey: ticket)?.completion
        }
        guard let camera = current, let request = finish else {
            frame.release()
            perform(machine.saved(ticket, wasEncoded: false))
            finish?(.failure(CaptureError.noCamera))
            return
        }
        let selectedAt = loop.now
        let (selection, wakeCost) = standby.selection(selection, pressedAt: press.pressedAt)
        var metadata = photoMetadata(for: frame.metadata, camera: camera)
        if metadata.flashFired != nil { metadata.flashFired = flashFired }
        metadata.pressToExposure = frame.metadata.sensorTimestamp - press.pressedAt
        metadata.wakeCost = wakeCost
        delegate?.captureEngine(self, complete: &metadata)
        let finalMetadata = metadata
        let encoder = self.encoder
        let store = self.store
        let afState = focus.state
        let album = currentAlbum
        let loop = self.loop
        let stored: (Result<SavedPhoto, Error>) -> Void = { [weak self] outcome in
            guard let self else { return }
            self.perform(self.machine.saved(ticket, wasEncoded: true))
            request(
                outcome.map {
                    CaptureResult(
                        photo: $0, frame: frame.metadata, selection: selection,
                        pressedAt: press.pressedAt,
                        selectedAt: selectedAt, savedAt: self.loop.now, metadata: finalMetadata,
                        cameraID: camera.id, flashFired: finalMetadata.flashFired, afState: afState,
                        wakeCost: wakeCost)
                })
        }
        loop.offloadParallel({ Result { try frame.stillImage() } }) { image in
            frame.release()
            loop.offloadParallel({
                image.flatMap { image in
                    Result {
                        try store.write(metadata: finalMetadata) { sink in
                            try encoder.encode(image: image, metadata: finalMetadata, into: sink)
                        }
                    }
                }
            }) { [weak self] written in
                // The frame's copy is gone with the encode: its place in flight goes to the next
                // frame while this photo's file is synced and indexed.
                if let self { self.perform(self.machine.encoded()) }
                loop.offload(
                    { written.flatMap { written in Result { try store.index(written, album: album) } } },
                    then: stored)
            }
        }
    }
}
