// What a burst did: shots asked for and taken, how many at the frame rate, frames storage made it skip.

/// What a burst did. Shots are taken from consecutive frames while fewer than `maxInFlight`
/// frames are being encoded and stored; a frame that arrives while that many are in flight
/// is skipped and counted here, so that storage that cannot keep up is always reported.
public struct BurstReport: Sendable, Hashable, Codable {
    /// Shots asked for (nil: as long as the shutter was held).
    public var asked: Int?
    /// Shots taken.
    public var taken: Int
    /// Shots taken from consecutive frames before storage first held the burst back.
    public var atFrameRate: Int
    /// Frames that passed, untaken, while `maxInFlight` frames were in flight.
    public var framesSkipped: Int
    /// The bound on frames in flight (`[capture] frames_in_flight`).
    public var maxInFlight: Int
    /// Whether the flash would have fired for a single shot (flash on, or auto in a dark
    /// scene) but did not: a burst takes every frame, and the flash needs settle frames for
    /// each shot.
    public var flashWithheld = false

    /// Creates a report.
    public init(asked: Int?, taken: Int, atFrameRate: Int, framesSkipped: Int, maxInFlight: Int) {
        self.asked = asked
        self.taken = taken
        self.atFrameRate = atFrameRate
        self.framesSkipped = framesSkipped
        self.maxInFlight = maxInFlight
    }

    /// Whether storage held the burst back (some frames were skipped).
    public var storageFellBehind: Bool { framesSkipped > 0 }

    /// The sentence for an answer: nil unless the flash was withheld.
    public var flashNote: String? {
        guard flashWithheld else { return nil }
        return "the flash did not fire: a burst takes every frame, and the flash needs "
            + "its own settle frames for each shot; take single shots for flash photos"
    }

    /// The sentence for an answer or the log: nil when every shot came at the frame rate.
    public var storageNote: String? {
        guard storageFellBehind else { return nil }
        return "storage could not keep up: \(atFrameRate) of \(taken) shots at the frame rate, then "
            + "\(framesSkipped) frames skipped while \(maxInFlight) photos were being encoded and stored "
            + "(`[capture] frames_in_flight`)"
    }
}
