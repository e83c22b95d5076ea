// The JSON answer of `capture --burst N --json`: the photos and how the burst went.

import PinholeAppliance

/// `capture --burst N --json`: every saved photo (as `capture --json` gives one), and the
/// burst's report: shots taken, how many at the frame rate, frames skipped while storage was
/// behind, and the bound on frames in flight.
struct BurstAnswer: Encodable {
    var photos: [CaptureAnswer]
    var failed: [String]
    var taken: Int
    var atFrameRate: Int
    var framesSkipped: Int
    var framesInFlight: Int
    var storageKeptUp: Bool

    init(_ burst: BurstOutcome) {
        photos = burst.saved.map(CaptureAnswer.init)
        failed = burst.failed
        taken = burst.report.taken
        atFrameRate = burst.report.atFrameRate
        framesSkipped = burst.report.framesSkipped
        framesInFlight = burst.report.maxInFlight
        storageKeptUp = !burst.report.storageFellBehind
    }
}
