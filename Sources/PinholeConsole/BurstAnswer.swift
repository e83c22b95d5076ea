// The JSON answer of `capture --burst N --json`: the photos and how the burst went.

import PinholeAppliance
import PinholeCapture

/// `capture --burst N --json`: every saved photo (as `capture --json` gives one), and the
/// burst's report: shots taken, how many at the frame rate, frames skipped while storage was
/// behind, the bound on frames in flight, shots still being stored at the deadline, and why
/// the flash did not fire.
struct BurstAnswer: Encodable {
    var photos: [CaptureAnswer]
    var failed: [String]
    var taken: Int
    var atFrameRate: Int
    var framesSkipped: Int
    var framesInFlight: Int
    var storageKeptUp: Bool
    /// Shots still being stored when the burst answered at its deadline (saved later).
    var pending: [Int]
    /// Why the flash did not fire, when it would have for a single shot.
    var flashNote: String?
    /// With `[capture] live = true`: that the burst's photos are stills, not Live Photos.
    var liveNote: String?

    init(_ burst: BurstOutcome) {
        photos = burst.saved.map { CaptureAnswer($0) }
        failed = burst.failed
        taken = burst.report.taken
        atFrameRate = burst.report.atFrameRate
        framesSkipped = burst.report.framesSkipped
        framesInFlight = burst.report.maxInFlight
        storageKeptUp = !burst.report.storageFellBehind
        pending = burst.pending
        flashNote = burst.report.flashNote
        liveNote = burst.liveNote
    }
}
