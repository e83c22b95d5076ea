// Capture matching as a value: the frame ring, waiting presses, the flash capture and work in flight.

import PinholeCore

/// Identifies one capture request from press to saved photo.
public struct CaptureTicket: Hashable, Sendable, CustomStringConvertible {
    /// The engine's running number.
    public let number: UInt64

    /// Creates a ticket.
    public init(_ number: UInt64) { self.number = number }

    /// "#N".
    public var description: String { "#\(number)" }
}

/// The pure part of the capture engine: which frame serves which press.
///
/// It takes events (a frame arrived, a press, a timeout, a photo saved, the stream stopped)
/// and returns the actions the engine performs (release a frame, process a frame for a press,
/// arm or cancel a timeout, light or darken the flash, fail a press). It never calls out, so
/// tests drive it directly with hand-made frames.
struct CaptureMachine {
    /// A press waiting for its frame (or being served).
    struct Press: Sendable, Equatable {
        /// Which request.
        var ticket: CaptureTicket
        /// When the shutter was pressed, on the loop's timeline.
        var pressedAt: Instant
        /// Pressed while changed controls were not yet in effect: only a frame that shows
        /// them may serve it.
        var waitsForControls = false
        /// A burst's shot number (1, 2, …); 0 for a single capture.
        var shot = 0
        /// Flash auto: the frame that would serve this press decides (its own metering). A dark
        /// one is released, the flash lit and a lit frame taken instead.
        var autoFlash: FlashPolicy? = nil
    }

    /// A capture waiting for a frame lit by the flash.
    struct FlashState: Sendable, Equatable {
        var press: Press
        var firedAt: Instant
        var settling = AESettling()
    }

    /// Whether AE has settled on the frames shown so far: two in a row within 8 % of each
    /// other's exposure (time × gain), AE held, or `maxSettleFrames` frames seen.
    struct AESettling: Sendable, Equatable {
        var frames = 0
        var lastProduct: Double?

        mutating func settled(on metadata: FrameMetadata, aeHeld: Bool, maxSettleFrames: Int) -> Bool {
            frames += 1
            let product = metadata.exposureTime.seconds * metadata.totalGain
            let steady = lastProduct.map { abs(product / $0 - 1) < 0.08 } ?? false
            lastProduct = product
            return aeHeld || steady || frames >= maxSettleFrames
        }
    }

    /// Why a press failed.
    enum Failure: Sendable, Equatable {
        /// No frame came within the timeout.
        case noFrame
        /// A flash capture is already under way.
        case flashBusy
        /// The camera stopped.
        case stopped
        /// A burst is already under way.
        case burstBusy
    }

    /// What the engine must do.
    enum Action {
        /// Give the frame back to the camera.
        case release(any CameraFrame)
        /// Encode and store `frame` for `press`; the machine counts it in flight until `saved`.
        case process(any CameraFrame, Press, FrameSelection, flashFired: Bool)
        /// Start the press's timeout.
        case armTimeout(CaptureTicket)
        /// Cancel the press's timeout.
        case cancelTimeout(CaptureTicket)
        /// Light or darken the flash.
        case setFlash(Bool)
        /// Answer the press with a failure.
        case fail(CaptureTicket, Failure)
        /// The burst took its last shot (or was stopped): no more `process` for it.
        case burstEnded(CaptureTicket, BurstReport)
    }

    /// Full-resolution frames kept for zero shutter lag.
    let ringSize: Int
    /// The kept frames, oldest first. (Set only by the machine's own files, as are
    /// `inFlight` and `burst`.)
    var ring: [any CameraFrame] = []
    /// Presses waiting for a frame, in press order.
    private(set) var pending: [Press] = []
    /// The flash capture under way.
    private(set) var flash: FlashState?
    /// Flash auto: the frame exposing at a press was dark, so frames that began after the
    /// press decide (dark: the flash fires; light that AE has settled on: taken unlit).
    private(set) var autoJudge: AutoFlashJudge?

    /// A flash-auto press whose frame at the press was dark, judged on the frames after it.
    struct AutoFlashJudge: Sendable, Equatable {
        var press: Press
        var policy: FlashPolicy
        var settling = AESettling()
    }
    /// Frames handed out for encoding and not yet encoded (each holds a full-resolution copy).
    var inFlight = 0
    /// At most this many frames are in flight during a burst (each holds a full-resolution
    /// copy and its JPEG): frames arriving meanwhile are skipped and counted.
    var maxInFlight: Int
    /// Shots encoded into their files and waiting for the file's sync and the index (no frame
    /// held: a file written, a few bytes of record).
    var waiting = 0
    /// During a burst, a frame is taken only while fewer than `maxInFlight + maxWaiting` shots
    /// are unsaved, so that at most `maxWaiting` wait for their sync and index once encoded.
    var maxWaiting: Int
    /// The burst under way.
    var burst: Burst?
    /// Controls changed and not yet seen in effect.
    private(set) var requirement: ControlRequirement?

    /// Creates a machine keeping `ringSize` frames.
    init(
        ringSize: Int, maxInFlight: Int = CaptureMachine.defaultMaxInFlight,
        maxWaiting: Int = CaptureMachine.defaultMaxWaiting
    ) {
        self.ringSize = ringSize
        self.maxInFlight = max(1, maxInFlight)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Frames in flight by default: 2 full-resolution shots (a 12 MP copy of about 18 MB and a
    /// few encoded bands each): one is copied out while the other is encoded on every core, so
    /// more would add memory (a frame each), not speed.
    static let defaultMaxInFlight = 2

    /// Shots waiting for their sync and index by default: a burst's syncs and commits run one
    /// after the other on the loop's worker while the next frames are encoded, and four absorb
    /// a slow sync (tens of milliseconds on an SD card) without holding a frame.
    static let defaultMaxWaiting = 4

    /// Whether any press is waiting, being served, or the flash is out.
    var isBusy: Bool {
        !pending.isEmpty || inFlight > 0 || waiting > 0 || flash != nil || burst != nil || autoJudge != nil
    }

    /// The newest kept frame.
    var newestFrame: (any CameraFrame)? { ring.last }

    // MARK: Events

    /// A frame arrived. `aeHeld`: exposure is manual or locked, so a lit frame needs no
    /// settling; `maxSettleFrames`: at most this many lit frames are waited for AE.
    mutating func frameArrived(
        _ frame: any CameraFrame, aeHeld: Bool, maxSettleFrames: Int, now: Instant? = nil
    ) -> [Action] {
        // A frame arrives once its exposure has ended: later frames start no earlier.
        let now = now ?? frame.metadata.sensorTimestamp + frame.metadata.exposureTime
        if let selection = judgeRequirement(frame.metadata) {
            // The first frame with the new controls in effect serves the first press that waited
            // (a burst's first shot before any press).
            let waiting = pending.firstIndex(where: \.waitsForControls)
            let burstWaited = burst?.press.waitsForControls == true
            for index in pending.indices { pending[index].waitsForControls = false }
            flash?.press.waitsForControls = false
            burst?.press.waitsForControls = false
            if burstWaited { return burstFrame(frame, selection: selection) }
            if let waiting {
                let press = pending.remove(at: waiting)
                return [.cancelTimeout(press.ticket)] + serve(frame, press, selection, now: now)
            }
        }
        if let actions = offerToBurst(frame) { return actions }
        if let actions = autoFlashFrame(frame, aeHeld: aeHeld, maxSettleFrames: maxSettleFrames, now: now) {
            return actions
        }
        if let state = flash, !state.press.waitsForControls,
            let actions = flashFrame(frame, aeHeld: aeHeld, maxSettleFrames: maxSettleFrames)
        {
            return actions
        }
        let free = pending.indices.filter { !pending[$0].waitsForControls }
        if let (index, selection) = Self.match(free, frame: { _ in frame.metadata }, press: { pending[$0] }) {
            let press = pending.remove(at: free[index])
            return [.cancelTimeout(press.ticket)] + serve(frame, press, selection, now: now)
        }
        ring.append(frame)
        var actions: [Action] = []
        while ring.count > ringSize { actions.append(.release(ring.removeFirst())) }
        return actions
    }

    /// The shutter was pressed. `fireFlash`: the flash policy wants the flash for this press,
    /// lit `now`.
    mutating func press(_ press: Press, fireFlash: Bool, now: Instant) -> [Action] {
        var press = press
        press.waitsForControls = requirement != nil
        if fireFlash {
            guard flash == nil else { return [.fail(press.ticket, .flashBusy)] }
            flash = FlashState(press: press, firedAt: now)
            return [.setFlash(true), .armTimeout(press.ticket)]
        }
        if !press.waitsForControls,
            let (index, selection) = Self.match(ring, frame: \.metadata, press: { _ in press })
        {
            let frame = ring.remove(at: index)
            return serve(frame, press, selection, now: now)
        }
        pending.append(press)
        return [.armTimeout(press.ticket)]
    }

    /// Serves `press` with `frame`. In flash auto the frame's own metering decides: a light
    /// one is taken; a dark one that began after the press lights the flash (a lit frame is
    /// taken instead); a dark one exposing at the press hands the decision to the frames after
    /// the press (the light may have changed since). When another flash capture or judgement
    /// holds the torch, the frame is taken unlit.
    private mutating func serve(
        _ frame: any CameraFrame, _ press: Press, _ selection: FrameSelection, now: Instant
    ) -> [Action] {
        if let policy = press.autoFlash, flash == nil, autoJudge == nil,
            policy.shouldFire(scene: frame.metadata, hasFlash: true)
        {
            var decided = press
            decided.autoFlash = nil
            // Only a frame that began after the press shows the light since (one that began at
            // the press instant was exposing at it).
            if frame.metadata.sensorTimestamp > press.pressedAt {
                flash = FlashState(press: decided, firedAt: now)
                return [.release(frame), .setFlash(true), .armTimeout(press.ticket)]
            }
            autoJudge = AutoFlashJudge(press: decided, policy: policy)
            return [.release(frame), .armTimeout(press.ticket)]
        }
        inFlight += 1
        return [.process(frame, press, selection, flashFired: false)]
    }

    /// Offers a frame to a flash-auto judgement; nil when there is none or the frame did not
    /// begin after the press.
    private mutating func autoFlashFrame(
        _ frame: any CameraFrame, aeHeld: Bool, maxSettleFrames: Int, now: Instant
    ) -> [Action]? {
        guard var judge = autoJudge, frame.metadata.sensorTimestamp > judge.press.pressedAt else {
            return nil
        }
        let metadata = frame.metadata
        if judge.policy.shouldFire(scene: metadata, hasFlash: true) {
            autoJudge = nil
            flash = FlashState(press: judge.press, firedAt: now)
            return [.release(frame), .setFlash(true)]
        }
        // Light now: taken once AE has settled on it (as under the flash).
        guard judge.settling.settled(on: metadata, aeHeld: aeHeld, maxSettleFrames: maxSettleFrames) else {
            autoJudge = judge
            return [.release(frame)]
        }
        autoJudge = nil
        inFlight += 1
        return [
            .cancelTimeout(judge.press.ticket),
            .process(frame, judge.press, .nextAfterPress, flashFired: false),
        ]
    }

    /// Controls were changed: presses from now on wait for a frame that shows them.
    mutating func controlsChanged(_ change: ControlRequirement) {
        requirement = requirement.map { $0.merged(with: change) } ?? change
    }

    /// The press's timeout fired: if it still waits, it fails.
    mutating func timedOut(_ ticket: CaptureTicket) -> [Action] {
        if let state = burst, state.press.ticket == ticket, state.taken == 0 {
            burst = nil
            return [.fail(ticket, .noFrame)]
        }
        if let index = pending.firstIndex(where: { $0.ticket == ticket }) {
            pending.remove(at: index)
            return [.fail(ticket, .noFrame)]
        }
        if flash?.press.ticket == ticket {
            flash = nil
            return [.setFlash(false), .fail(ticket, .noFrame)]
        }
        if autoJudge?.press.ticket == ticket {
            autoJudge = nil
            return [.fail(ticket, .noFrame)]
        }
        return []
    }

    /// A processed frame was encoded into its file (or failed to be): its full-resolution copy
    /// is gone, so its place in flight is free; the photo waits for its sync and index.
    mutating func encoded() -> [Action] {
        inFlight = max(0, inFlight - 1)
        waiting += 1
        return []
    }

    /// A processed frame's photo was stored (or failed to be); `wasEncoded`: after `encoded()`
    /// (otherwise it failed before its encode ended).
    mutating func saved(_ ticket: CaptureTicket, wasEncoded: Bool) -> [Action] {
        if wasEncoded {
            waiting = max(0, waiting - 1)
        } else {
            inFlight = max(0, inFlight - 1)
        }
        return []
    }

    /// The camera stopped streaming (a switch, a restart): kept frames go back. With
    /// `failWaiting`, waiting presses fail too; otherwise they wait for the next camera's frames.
    /// A flash capture ends either way (the torch must not stay lit for a camera that is gone).
    mutating func streamStopped(failWaiting: Bool) -> [Action] {
        var actions: [Action] = ring.map { .release($0) }
        ring.removeAll()
        if let state = burst {
            // A burst ends with the stream: its shots so far are saved, none before fails.
            burst = nil
            actions.append(.cancelTimeout(state.press.ticket))
            actions.append(
                state.taken == 0
                    ? .fail(state.press.ticket, .stopped) : .burstEnded(state.press.ticket, report(state)))
        }
        if let flash {
            self.flash = nil
            actions += [
                .cancelTimeout(flash.press.ticket), .setFlash(false), .fail(flash.press.ticket, .stopped),
            ]
        }
        if let judge = autoJudge {
            autoJudge = nil
            actions += [.cancelTimeout(judge.press.ticket), .fail(judge.press.ticket, .stopped)]
        }
        if failWaiting {
            for press in pending { actions += [.cancelTimeout(press.ticket), .fail(press.ticket, .stopped)] }
            pending.removeAll()
        }
        return actions
    }

    /// The camera restarted after a stall: kept frames are gone, presses and the flash wait on.
    /// (A restart re-applies every setting, so an outstanding change stays outstanding.)
    mutating func streamRestarted() -> [Action] {
        let actions: [Action] = ring.map { .release($0) }
        ring.removeAll()
        return actions
    }

    // MARK: Rules

    /// Shows the frame to the outstanding requirement; the selection when it is settled now.
    private mutating func judgeRequirement(_ metadata: FrameMetadata) -> FrameSelection? {
        guard var change = requirement else { return nil }
        switch change.judge(metadata) {
        case .before, .pending:
            requirement = change
            return nil
        case .confirmed:
            requirement = nil
            return .controlsInForce
        case .unconfirmed:
            requirement = nil
            return .controlsUnconfirmed
        }
    }

    /// Offers a frame to the flash capture; nil when the frame is not the flash's.
    private mutating func flashFrame(_ frame: any CameraFrame, aeHeld: Bool, maxSettleFrames: Int)
        -> [Action]?
    {
        guard var state = flash else { return nil }
        let metadata = frame.metadata
        // Only frames whose whole exposure came after the torch lit up.
        guard metadata.sensorTimestamp >= state.firedAt else { return nil }
        guard state.settling.settled(on: metadata, aeHeld: aeHeld, maxSettleFrames: maxSettleFrames) else {
            flash = state
            return nil
        }
        flash = nil
        inFlight += 1
        return [
            .cancelTimeout(state.press.ticket), .setFlash(false),
            .process(frame, state.press, .flashLit, flashFired: true),
        ]
    }

    /// Zero shutter lag: among `candidates` (frames for one press, or presses for one frame),
    /// the first pairing whose frame was exposing at the press, else the first whose frame
    /// started after it.
    static func match<Candidate>(
        _ candidates: [Candidate], frame: (Candidate) -> FrameMetadata, press: (Candidate) -> Press
    ) -> (index: Int, selection: FrameSelection)? {
        if let index = candidates.firstIndex(where: { frame($0).wasExposing(at: press($0).pressedAt) }) {
            return (index, .exposingAtPress)
        }
        if let index = candidates.firstIndex(where: { frame($0).sensorTimestamp >= press($0).pressedAt }) {
            return (index, .nextAfterPress)
        }
        return nil
    }
}
