// Controls changed before a press, and whether a frame's metadata shows them in effect.

import PinholeCore

/// The controls asked for since the last frame known to use them. A press made while one is
/// outstanding is served by the first frame that shows every one of them in effect.
///
/// A frame shows a control in effect when its metadata reports the asked value: exposure time
/// and gain through the frame's exposure fields (within what sensors round to), the lens
/// through its position, the rest through the controls the camera echoes. A control the
/// camera does not report is taken as in effect `delayFrames` frames after the change.
/// After an exposure-affecting change in auto exposure (EV, metering, AE on) the frame must
/// also show AE settled: its exposure product within 8 % of the frame before. If no frame
/// confirms the change within `delayFrames + giveUpAfter` frames, the change counts as
/// unconfirmed and presses are served without waiting longer.
public struct ControlRequirement: Sendable, Equatable {
    /// When the controls were asked for.
    public var changedAt: Instant
    /// The asked values by libcamera name.
    public var expected: [String: ControlValue]
    /// Whether auto exposure must have settled on the new values.
    public var waitsForAE: Bool
    /// Frames after which a control the camera does not report counts as in effect.
    public var delayFrames: Int
    /// Frames beyond `delayFrames` to wait for confirmation before giving up.
    public var giveUpAfter = 12
    /// Frames started after the change, seen so far.
    public private(set) var framesSeen = 0
    private var lastProduct: Double?

    /// Creates a requirement for controls set at `changedAt`.
    public init(
        changedAt: Instant, expected: [String: ControlValue], waitsForAE: Bool = false, delayFrames: Int = 3
    ) {
        self.changedAt = changedAt
        self.expected = expected.filter { !Self.commands.contains($0.key) }
        self.waitsForAE = waitsForAE
        self.delayFrames = delayFrames
    }

    /// Controls that are one-off commands, not state a frame can show.
    static let commands: Set<String> = ["AfTrigger", "AfPause"]

    /// A later change on top of this one: both sets must be in effect, counted from the later.
    public func merged(with later: ControlRequirement) -> ControlRequirement {
        var merged = later
        merged.expected = expected.merging(later.expected) { $1 }
        merged.waitsForAE = waitsForAE || later.waitsForAE
        return merged
    }

    /// What a frame says about the requirement.
    public enum Verdict: Sendable, Equatable {
        /// The frame started before the change: it says nothing.
        case before
        /// Not yet in effect.
        case pending
        /// In effect in this frame.
        case confirmed
        /// Waited too long: serve presses without confirmation.
        case unconfirmed
    }

    /// Looks at the next frame (frames in order).
    public mutating func judge(_ frame: FrameMetadata) -> Verdict {
        guard frame.sensorTimestamp >= changedAt else { return .before }
        framesSeen += 1
        var unreported = false
        for (name, value) in expected {
            switch Self.shows(frame, name, value) {
            case true?: continue
            case false?: return stillPending()
            case nil: unreported = true
            }
        }
        if unreported && framesSeen < delayFrames { return stillPending() }
        if waitsForAE {
            let product = frame.exposureTime.seconds * frame.totalGain
            defer { lastProduct = product }
            guard product > 0, let last = lastProduct, abs(product / last - 1) < 0.08 else {
                return stillPending()
            }
        }
        return .confirmed
    }

    private mutating func stillPending() -> Verdict {
        if waitsForAE {
            lastProduct = nil
        }
        return framesSeen >= delayFrames + giveUpAfter ? .unconfirmed : .pending
    }

    /// Whether `frame` shows `name` at `value`; nil when the frame does not report it.
    static func shows(_ frame: FrameMetadata, _ name: String, _ value: ControlValue) -> Bool? {
        switch name {
        case "ExposureTime":
            guard frame.exposureTime > .zero, let wanted = value.number else { return nil }
            let got = Double(frame.exposureTime.nanoseconds) / 1000
            return abs(got - wanted) <= max(0.02 * wanted, 50)
        case "AnalogueGain":
            guard frame.analogueGain > 0, let wanted = value.number else { return nil }
            return abs(frame.analogueGain - wanted) <= 0.02 * wanted
        case "LensPosition":
            guard let lens = frame.lensPosition, let wanted = value.number else { return nil }
            return abs(lens - wanted) <= 0.02
        default:
            guard let reported = frame.controls[name] else { return nil }
            guard let got = reported.number, let wanted = value.number else { return reported == value }
            return abs(got - wanted) <= 1e-6 * max(1, abs(wanted))
        }
    }
}

extension ControlValue {
    /// The value as a number (booleans 0/1); nil for rectangles.
    var number: Double? {
        switch self {
        case .bool(let flag): return flag ? 1 : 0
        case .int(let int): return Double(int)
        case .double(let double): return double
        case .rectangles: return nil
        }
    }
}
