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
}

/// A burst's shots on their way from frame to saved photo.
struct BurstProgress {
    var shot: (Result<CaptureResult, Error>) -> Void
    var completion: (Result<BurstOutcome, Error>) -> Void
    var results: [(shot: Int, result: Result<CaptureResult, Error>)] = []
    var report: BurstReport?
    var outstanding = 0
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
        bursts[ticket] = BurstProgress(shot: shot, completion: completion)
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
        progress.report = report
        bursts[ticket] = progress
        finishBurstIfDone(ticket)
    }

    /// A burst shot was handed out for encoding and storing.
    func burstShotStarted(_ ticket: CaptureTicket) {
        bursts[ticket]?.outstanding += 1
    }

    /// A burst shot was saved (or failed to be).
    func burstShotDone(_ ticket: CaptureTicket, shot: Int, result: Result<CaptureResult, Error>) {
        guard var progress = bursts[ticket] else { return }
        progress.outstanding -= 1
        progress.results.append((shot, result))
        bursts[ticket] = progress
        progress.shot(result)
        finishBurstIfDone(ticket)
    }

    private func finishBurstIfDone(_ ticket: CaptureTicket) {
        guard let progress = bursts[ticket], let report = progress.report, progress.outstanding == 0 else {
            return
        }
        bursts.removeValue(forKey: ticket)
        let ordered = progress.results.sorted { $0.shot < $1.shot }
        var saved: [CaptureResult] = []
        var failed: [String] = []
        for (shot, result) in ordered {
            switch result {
            case .success(let capture): saved.append(capture)
            case .failure(let error): failed.append("shot \(shot): \(error)")
            }
        }
        progress.completion(.success(BurstOutcome(saved: saved, failed: failed, report: report)))
    }
}
