// What a burst did: shots asked for and taken, how many at the frame rate, frames storage made it skip.

/// What a burst did. Shots are taken from consecutive frames while fewer than `maxInFlight`
/// frames are being encoded and fewer than `maxInFlight + maxWaiting` shots are unsaved
/// (encoded shots wait for their file's sync and the index); a frame that arrives otherwise is
/// skipped and counted here, so that storage that cannot keep up is always reported.
public struct BurstReport: Sendable, Hashable, Codable {
    /// Shots asked for (nil: as long as the shutter was held).
    public var asked: Int?
    /// Shots taken.
    public var taken: Int
    /// Shots taken from consecutive frames before storage first held the burst back.
    public var atFrameRate: Int
    /// Frames that passed, untaken, while `maxInFlight` frames were being encoded or
    /// `maxInFlight + maxWaiting` shots were unsaved.
    public var framesSkipped: Int
    /// The bound on frames being encoded (`[capture] frames_in_flight`).
    public var maxInFlight: Int
    /// Of `framesSkipped`, those that passed while encodes had room but `maxWaiting` encoded
    /// shots waited for their sync and index (the storage's share).
    public var framesSkippedWaiting: Int
    /// The bound on encoded shots waiting for their sync and index.
    public var maxWaiting: Int
    /// Whether the flash would have fired for a single shot (flash on, or auto in a dark
    /// scene) but did not: a burst takes every frame, and the flash needs settle frames for
    /// each shot.
    public var flashWithheld = false

    /// Creates a report.
    public init(
        asked: Int?, taken: Int, atFrameRate: Int, framesSkipped: Int, maxInFlight: Int,
        framesSkippedWaiting: Int = 0, maxWaiting: Int = 0
    ) {
        self.asked = asked
        self.taken = taken
        self.atFrameRate = atFrameRate
        self.framesSkipped = framesSkipped
        self.maxInFlight = maxInFlight
        self.framesSkippedWaiting = framesSkippedWaiting
        self.maxWaiting = maxWaiting
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
        let encoding = framesSkipped - framesSkippedWaiting
        var causes: [String] = []
        if encoding > 0 {
            causes.append(
                "\(encoding) while \(maxInFlight) photos were being encoded (`[capture] frames_in_flight`)")
        }
        if framesSkippedWaiting > 0 {
            causes.append(
                "\(framesSkippedWaiting) while \(maxWaiting) encoded photos waited for their sync and index")
        }
        return "storage could not keep up: \(atFrameRate) of \(taken) shots at the frame rate, then "
            + "\(framesSkipped) frames skipped: " + causes.joined(separator: ", ")
    }
}
