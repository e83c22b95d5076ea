// Bursts at the camera's frame rate: `capture --burst N` and a held shutter.

import PinholeCapture
import PinholeCore

extension Appliance {
    /// Takes `count` photos of consecutive frames at the camera's frame rate (nil: until
    /// `stopBurst()`, as a held shutter does), starting from the frame exposing at `pressedAt`.
    /// Each saved shot is announced as a capture is; when storage fell behind or has not
    /// answered by the deadline, or the flash was withheld, the outcome says so (and the log too).
    public func captureBurst(
        count: Int?, pressedAt: Instant? = nil, completion: ((Result<BurstOutcome, Error>) -> Void)? = nil
    ) {
        noteActivity(wakeFor: "capture")
        capturesInFlight += 1
        indicator.show(.busy(true))
        engine.captureBurst(
            count: count, pressedAt: pressedAt,
            shot: { [weak self] result in self?.burstShotSaved(result) },
            completion: { [weak self] outcome in
                guard let self else { return }
                let outcome = outcome.map { burst in
                    var burst = burst
                    if self.livePhotos { burst.liveNote = Self.burstLiveNote }
                    return burst
                }
                self.capturesInFlight -= 1
                self.indicator.show(.busy(false))
                switch outcome {
                case .success(let burst):
                    self.burstShotsTaken += burst.report.taken
                    self.burstSkipped += burst.report.framesSkipped
                    if let note = burst.report.storageNote {
                        self.problem("burst of \(burst.report.taken): \(note)")
                    }
                    if let note = burst.pendingNote {
                        self.problem("burst of \(burst.report.taken): \(note)")
                    }
                    if let note = burst.liveNote {
                        self.emit(.notice("burst of \(burst.report.taken): \(note)"))
                    }
                    if let note = burst.report.flashNote {
                        // A held shutter has no answer to carry this: the log does.
                        self.problem("burst of \(burst.report.taken): \(note)")
                    }
                case .failure(let error):
                    self.indicator.show(.error(self.indicator.lowStorage ? .storage : .captureFailed))
                    self.problem("burst failed: \(error)")
                    self.emit(.captureFailed(error))
                }
                self.checkStorage()
                completion?(outcome)
            })
    }

    /// What a burst says with `[capture] live = true`: its photos are stills, as a phone's
    /// burst is (a clip 1.5 s each side of every frame at the frame rate would be one long
    /// movie, not Live Photos); a single photo and the self-timer's are Live Photos.
    public static let burstLiveNote =
        "stills only: a burst makes no Live Photos ([capture] live pairs single photos and the self-timer's)"

    /// Ends the burst under way (the shutter was let go); its shots are still saved.
    public func stopBurst() { engine.stopBurst() }

    private func burstShotSaved(_ result: Result<CaptureResult, Error>) {
        switch result {
        case .success(let capture):
            lastCapture = capture
            indicator.show(.saved)
            emit(.saved(capture))
        case .failure(let error):
            indicator.show(.error(indicator.lowStorage ? .storage : .captureFailed))
            problem("capture failed: \(error)")
            emit(.captureFailed(error))
        }
    }
}
