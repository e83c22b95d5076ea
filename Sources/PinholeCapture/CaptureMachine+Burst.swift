// Bursts in the capture machine: consecutive frames, each a shot, while fewer than the bound are in flight.

import PinholeCore

extension CaptureMachine {
    /// A burst under way: consecutive frames for one request, each a shot of its own.
    struct Burst: Sendable, Equatable {
        /// The request, when its shutter was pressed, and whether it waits for changed controls.
        var press: Press
        /// Shots asked for (nil: until `stopBurst`, a held shutter).
        var count: Int?
        /// Shots taken so far.
        var taken = 0
        /// Shots taken before storage first held the burst back.
        var atFrameRate = 0
        /// Frames that passed while `maxInFlight` frames were being encoded, or while
        /// `maxInFlight + maxWaiting` shots were not yet saved.
        var framesSkipped = 0
        /// Of those, frames that passed while encodes had room but `maxWaiting` encoded shots
        /// waited for their sync and index.
        var framesSkippedWaiting = 0

        /// Whether more shots are wanted.
        var wantsMore: Bool { count.map { taken < $0 } ?? true }
    }

    /// Starts a burst of `count` shots (nil: until `stopBurst`). The first shot is chosen as a
    /// press's frame is (zero shutter lag, or the first frame with changed controls in force);
    /// every later shot is the next frame, as long as fewer than `maxInFlight` frames are being
    /// encoded and fewer than `maxInFlight + maxWaiting` shots are unsaved (encoded shots wait
    /// for their sync and index without holding a frame). Frames that pass meanwhile are
    /// counted, never queued. The flash does not fire in a burst (the engine reports when a single shot would
    /// have fired it).
    mutating func startBurst(_ press: Press, count: Int?) -> [Action] {
        guard burst == nil else { return [.fail(press.ticket, .burstBusy)] }
        var press = press
        press.waitsForControls = requirement != nil
        burst = Burst(press: press, count: count)
        var actions: [Action] = [.armTimeout(press.ticket)]
        // Frames older than the burst's first are of no use to it: they go back to the camera,
        // so that every buffer is free for the burst.
        let kept = ring
        ring.removeAll()
        var first: Int?
        var selection = FrameSelection.exposingAtPress
        if !press.waitsForControls,
            let (index, chosen) = Self.match(kept, frame: \.metadata, press: { _ in press })
        {
            first = index
            selection = chosen
        }
        for (index, frame) in kept.enumerated() {
            guard let first, index >= first, burst?.wantsMore == true else {
                actions.append(.release(frame))
                continue
            }
            actions += burstFrame(frame, selection: index == first ? selection : .burst)
        }
        return actions
    }

    /// Ends the burst under way (the held shutter was let go).
    mutating func stopBurst() -> [Action] {
        guard let state = burst else { return [] }
        burst = nil
        return [.cancelTimeout(state.press.ticket), .burstEnded(state.press.ticket, report(state))]
    }

    /// What a burst did.
    func report(_ state: Burst) -> BurstReport {
        BurstReport(
            asked: state.count, taken: state.taken, atFrameRate: state.atFrameRate,
            framesSkipped: state.framesSkipped, maxInFlight: maxInFlight,
            framesSkippedWaiting: state.framesSkippedWaiting, maxWaiting: maxWaiting)
    }

    /// Offers a frame to the burst; nil when no burst wants it now (it waits for controls, or
    /// the frame ended before the press).
    mutating func offerToBurst(_ frame: any CameraFrame) -> [Action]? {
        guard let state = burst, !state.press.waitsForControls else { return nil }
        if state.taken > 0 { return burstFrame(frame, selection: .burst) }
        let metadata = frame.metadata
        if metadata.wasExposing(at: state.press.pressedAt) {
            return burstFrame(frame, selection: .exposingAtPress)
        }
        if metadata.sensorTimestamp >= state.press.pressedAt {
            return burstFrame(frame, selection: .nextAfterPress)
        }
        return nil
    }

    /// The burst takes `frame` as its next shot, or counts it as skipped while `maxInFlight`
    /// frames are being encoded or `maxInFlight + maxWaiting` shots are unsaved.
    mutating func burstFrame(_ frame: any CameraFrame, selection: FrameSelection) -> [Action] {
        guard var state = burst, state.wantsMore else { return [.release(frame)] }
        let encodesFull = inFlight >= maxInFlight
        guard !encodesFull, inFlight + waiting < maxInFlight + maxWaiting else {
            state.framesSkipped += 1
            if !encodesFull { state.framesSkippedWaiting += 1 }
            burst = state
            return [.release(frame)]
        }
        state.taken += 1
        if state.framesSkipped == 0 { state.atFrameRate += 1 }
        inFlight += 1
        var press = state.press
        press.shot = state.taken
        var actions: [Action] = state.taken == 1 ? [.cancelTimeout(press.ticket)] : []
        actions.append(.process(frame, press, selection, flashFired: false))
        if state.wantsMore {
            burst = state
        } else {
            burst = nil
            actions.append(.burstEnded(press.ticket, report(state)))
        }
        return actions
    }
}
