// Bursts at the camera's frame rate: consecutive frames, encoded on every core and stored in turn.

import PinholeCore

/// What a finished burst gives its caller.
public struct BurstOutcome: Sendable {
    /// The shots saved, in the order they were taken.
    public var saved: [CaptureResult]
    /// Shots whose encoding or storing failed, with why.
    public var failed: [String]
    /// Shots asked for and taken, and whether storage held the burst back.
    public var report: BurstReport
    /// Shots (numbered from 1) still being encoded or stored when the burst answered at its
    /// deadline: not dropped, each is announced when it is saved.
    public var pending: [Int] = []
    /// How long after the last shot the burst answered with shots pending.
    public var pendingAfter: Duration?
    /// Set when Live Photos are on (`[capture] live = true`): that the burst's photos are
    /// stills (`Appliance.burstLiveNote`).
    public var liveNote: String?

    /// The sentence for an answer: nil when no shot was pending.
    public var pendingNote: String? {
        guard !pending.isEmpty, let waited = pendingAfter else { return nil }
        let shots = pending.map(String.init).joined(separator: ", ")
        return
            "storage has not answered \(DurationText.text(Int64(waited / .milliseconds(1)))) after the last shot: "
            + "shot\(pending.count == 1 ? "" : "s") \(shots) still being stored; each is announced "
            + "(event saved) when storage answers, none is dropped"
    }

    /// Creates an outcome.
    public init(saved: [CaptureResult], failed: [String], report: BurstReport) {
        self.saved = saved
        self.failed = failed
        self.report = report
    }
}

/// A burst's shots on their way from frame to saved photo.
struct BurstProgress {
    var shot: (Result<CaptureResult, Error>) -> Void
    var completion: (Result<BurstOutcome, Error>) -> Void
    var results: [(shot: Int, result: Result<CaptureResult, Error>)] = []
    var report: BurstReport?
    var outstanding = 0
    /// Shots handed out for encoding and storing and not yet saved (or failed).
    var pending: Set<Int> = []
    /// Whether a single shot would have fired the flash when the burst began.
    var flashWithheld = false
    /// The deadline after the last shot by which the burst answers, saved or not.
    var deadline: TimerID?
    /// Whether `completion` was called (by the deadline) while shots were still pending.
    var answered = false
}

extension CaptureEngine {
    /// Takes `count` photos (nil: until `stopBurst()`) of consecutive frames at the camera's
    /// frame rate, starting with the frame a press at `pressedAt` would get. Each shot is
    /// encoded on the encoder threads (one per core) and stored in turn; while
    /// `maxFramesInFlight` shots are being encoded and stored, frames are skipped and counted
    /// (the outcome's report says so). `shot` gets each shot's outcome as it is saved;
    /// `completion` the whole burst once the last is saved.
    public func captureBurst(
        count: Int?, pressedAt: Instant? = nil,
        shot: @escaping (Result<CaptureResult, Error>) -> Void = { _ in },
        completion: @escaping (Result<BurstOutcome, Error>) -> Void
    ) {
        guard device != nil, let camera = current else {
            completion(.failure(CaptureError.noCamera))
            return
        }
        nextTicket += 1
        let ticket = CaptureTicket(nextTicket)
        var progress = BurstProgress(shot: shot, completion: completion)
        progress.flashWithheld = flash.shouldFire(scene: lastFrame, hasFlash: hasFlash)
        bursts[ticket] = progress
        // A failure before the first shot (no frame, another burst) answers through `requests`.
        requests[ticket] = CaptureRequestState(
            completion: { [weak self] result in
                guard case .failure(let error) = result else { return }
                self?.bursts.removeValue(forKey: ticket)?.completion(.failure(error))
            }, timeout: nil, camera: camera.model)
        let press = CaptureMachine.Press(ticket: ticket, pressedAt: pressedAt ?? loop.now)
        perform(machine.startBurst(press, count: count))
    }

    /// Ends the burst under way (a held shutter let go); shots taken are still saved.
    public func stopBurst() {
        perform(machine.stopBurst())
    }

    /// Whether a burst is taking shots.
    public var isBursting: Bool { machine.burst != nil }

    /// Shots taken so far by the burst under way (0: none).
    public var currentBurstShots: Int { machine.burst?.taken ?? 0 }

    /// The burst `ticket` ended with `report`: no more shots will come.
    func burstEnded(_ ticket: CaptureTicket, report: BurstReport) {
        if let request = requests.removeValue(forKey: ticket), let timer = request.timeout {
            loop.cancel(timer)
        }
        guard var progress = bursts[ticket] else { return }
        if report.taken == 0 {
            bursts.removeValue(forKey: ticket)
            progress.completion(.failure(CaptureError.failed("the burst ended before its first frame")))
            return
        }
        var report = report
        report.flashWithheld = progress.flashWithheld
        progress.report = report
        if progress.outstanding > 0 {
            let waited = burstStoreDeadline
            progress.deadline = loop.schedule(after: waited) { [weak self] in
                self?.burstDeadlinePassed(ticket, waited: waited)
            }
        }
        bursts[ticket] = progress
        finishBurstIfDone(ticket)
    }

    /// A burst shot was handed out for encoding and storing.
    func burstShotStarted(_ ticket: CaptureTicket, shot: Int) {
        bursts[ticket]?.outstanding += 1
        bursts[ticket]?.pending.insert(shot)
    }

    /// A burst shot was saved (or failed to be).
    func burstShotDone(_ ticket: CaptureTicket, shot: Int, result: Result<CaptureResult, Error>) {
        guard var progress = bursts[ticket] else { return }
        progress.outstanding -= 1
        progress.pending.remove(shot)
        progress.results.append((shot, result))
        bursts[ticket] = progress
        progress.shot(result)
        finishBurstIfDone(ticket)
    }

    /// The burst's last shot was taken `waited` ago and some are still being encoded or
    /// stored (storage that hangs): the burst answers now with the shots saved so far and
    /// those still pending, which go on and are announced one by one as they are saved.
    private func burstDeadlinePassed(_ ticket: CaptureTicket, waited: Duration) {
        guard var progress = bursts[ticket], let report = progress.report, !progress.pending.isEmpty else {
            return
        }
        progress.deadline = nil
        progress.answered = true
        bursts[ticket] = progress
        var outcome = Self.outcome(progress, report: report)
        outcome.pending = progress.pending.sorted()
        outcome.pendingAfter = waited
        progress.completion(.success(outcome))
    }

    private func finishBurstIfDone(_ ticket: CaptureTicket) {
        guard let progress = bursts[ticket], let report = progress.report, progress.outstanding == 0 else {
            return
        }
        bursts.removeValue(forKey: ticket)
        if let timer = progress.deadline { loop.cancel(timer) }
        guard !progress.answered else { return }
        progress.completion(.success(Self.outcome(progress, report: report)))
    }

    private static func outcome(_ progress: BurstProgress, report: BurstReport) -> BurstOutcome {
        let ordered = progress.results.sorted { $0.shot < $1.shot }
        var saved: [CaptureResult] = []
        var failed: [String] = []
        for (shot, result) in ordered {
            switch result {
            case .success(let capture): saved.append(capture)
            case .failure(let error): failed.append("shot \(shot): \(error)")
            }
        }
        return BurstOutcome(saved: saved, failed: failed, report: report)
    }
}
