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
    }

    /// A capture waiting for a frame lit by the flash.
    struct FlashState: Sendable, Equatable {
        var press: Press
        var firedAt: Instant
        var litFrames = 0
        var lastProduct: Double?
    }

    /// Why a press failed.
    enum Failure: Sendable, Equatable {
        /// No frame came within the timeout.
        case noFrame
        /// A flash capture is already under way.
        case flashBusy
        /// The camera stopped.
        case stopped
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
    }

    /// Full-resolution frames kept for zero shutter lag.
    let ringSize: Int
    /// The kept frames, oldest first.
    private(set) var ring: [any CameraFrame] = []
    /// Presses waiting for a frame, in press order.
    private(set) var pending: [Press] = []
    /// The flash capture under way.
    private(set) var flash: FlashState?
    /// Frames handed out for encoding and storing and not yet saved.
    private(set) var inFlight = 0

    /// Creates a machine keeping `ringSize` frames.
    init(ringSize: Int) {
        self.ringSize = ringSize
    }

    /// Whether any press is waiting, being served, or the flash is out.
    var isBusy: Bool { !pending.isEmpty || inFlight > 0 || flash != nil }

    /// The newest kept frame.
    var newestFrame: (any CameraFrame)? { ring.last }

    // MARK: Events

    /// A frame arrived. `aeHeld`: exposure is manual or locked, so a lit frame needs no
    /// settling; `maxSettleFrames`: at most this many lit frames are waited for AE.
    mutating func frameArrived(_ frame: any CameraFrame, aeHeld: Bool, maxSettleFrames: Int) -> [Action] {
        if flash != nil, let actions = flashFrame(frame, aeHeld: aeHeld, maxSettleFrames: maxSettleFrames) {
            return actions
        }
        if let (index, selection) = Self.match(pending, frame: { _ in frame.metadata }, press: { $0 }) {
            let press = pending.remove(at: index)
            inFlight += 1
            return [.cancelTimeout(press.ticket), .process(frame, press, selection, flashFired: false)]
        }
        ring.append(frame)
        var actions: [Action] = []
        while ring.count > ringSize { actions.append(.release(ring.removeFirst())) }
        return actions
    }

    /// The shutter was pressed. `fireFlash`: the flash policy wants the flash for this press,
    /// lit `now`.
    mutating func press(_ press: Press, fireFlash: Bool, now: Instant) -> [Action] {
        if fireFlash {
            guard flash == nil else { return [.fail(press.ticket, .flashBusy)] }
            flash = FlashState(press: press, firedAt: now)
            return [.setFlash(true), .armTimeout(press.ticket)]
        }
        if let (index, selection) = Self.match(ring, frame: \.metadata, press: { _ in press }) {
            let frame = ring.remove(at: index)
            inFlight += 1
            return [.process(frame, press, selection, flashFired: false)]
        }
        pending.append(press)
        return [.armTimeout(press.ticket)]
    }

    /// The press's timeout fired: if it still waits, it fails.
    mutating func timedOut(_ ticket: CaptureTicket) -> [Action] {
        if let index = pending.firstIndex(where: { $0.ticket == ticket }) {
            pending.remove(at: index)
            return [.fail(ticket, .noFrame)]
        }
        if flash?.press.ticket == ticket {
            flash = nil
            return [.setFlash(false), .fail(ticket, .noFrame)]
        }
        return []
    }

    /// A processed frame's photo was stored (or failed to be).
    mutating func saved(_ ticket: CaptureTicket) -> [Action] {
        inFlight = max(0, inFlight - 1)
        return []
    }

    /// The camera stopped streaming (a switch, a restart): kept frames go back. With
    /// `failWaiting`, waiting presses fail too; otherwise they wait for the next camera's frames.
    /// A flash capture ends either way (the torch must not stay lit for a camera that is gone).
    mutating func streamStopped(failWaiting: Bool) -> [Action] {
        var actions: [Action] = ring.map { .release($0) }
        ring.removeAll()
        if let flash {
            self.flash = nil
            actions += [
                .cancelTimeout(flash.press.ticket), .setFlash(false), .fail(flash.press.ticket, .stopped),
            ]
        }
        if failWaiting {
            for press in pending { actions += [.cancelTimeout(press.ticket), .fail(press.ticket, .stopped)] }
            pending.removeAll()
        }
        return actions
    }

    /// The camera restarted after a stall: kept frames are gone, presses and the flash wait on.
    mutating func streamRestarted() -> [Action] {
        let actions: [Action] = ring.map { .release($0) }
        ring.removeAll()
        return actions
    }

    // MARK: Rules

    /// Offers a frame to the flash capture; nil when the frame is not the flash's.
    private mutating func flashFrame(_ frame: any CameraFrame, aeHeld: Bool, maxSettleFrames: Int)
        -> [Action]?
    {
        guard var state = flash else { return nil }
        let metadata = frame.metadata
        // Only frames whose whole exposure came after the torch lit up.
        guard metadata.sensorTimestamp >= state.firedAt else { return nil }
        state.litFrames += 1
        let product = metadata.exposureTime.seconds * metadata.totalGain
        let settled = aeHeld || state.lastProduct.map { abs(product / $0 - 1) < 0.08 } ?? false
        state.lastProduct = product
        guard settled || state.litFrames >= maxSettleFrames else {
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
