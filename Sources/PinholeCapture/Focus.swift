// Focus vocabulary: AF modes, states, range and speed, as the console and status name them.

/// How the lens is focused.
public enum AutofocusMode: String, Sendable, Codable, CaseIterable {
    /// The lens stays where it is put (`lens DIOPTRES`).
    case manual
    /// One scan when triggered (`af trigger`, half-press), then the lens stays.
    case auto
    /// The lens follows the scene: rescans when the subject changes.
    case continuous
}

/// Where focusing stands.
public enum AutofocusState: String, Sendable, Codable {
    /// No scan has run since the mode was set (or the camera cannot focus).
    case idle
    /// A scan is under way.
    case scanning
    /// The last scan found focus.
    case focused
    /// The last scan found no focus or timed out; the lens is at the fallback position.
    case failed

    /// The state from libcamera's AfState value.
    init?(libcamera value: Int) {
        switch value {
        case 0: self = .idle
        case 1: self = .scanning
        case 2: self = .focused
        case 3: self = .failed
        default: return nil
        }
    }
}

/// Which distances a scan searches.
public enum AutofocusRange: String, Sendable, Codable, CaseIterable {
    /// Ordinary subjects, from about 25 cm to infinity.
    case normal
    /// Close-ups only.
    case macro
    /// Everything the lens can reach.
    case full

    /// libcamera's AfRange value.
    var libcameraValue: Int { self == .normal ? 0 : self == .macro ? 1 : 2 }
}

/// How fast a scan runs, against how carefully.
public enum AutofocusSpeed: String, Sendable, Codable, CaseIterable {
    /// Finer steps.
    case normal
    /// Coarser steps, fewer frames.
    case fast

    /// libcamera's AfSpeed value.
    var libcameraValue: Int { self == .normal ? 0 : 1 }
}

/// The focus state the status line and capture results report.
public struct FocusStatus: Sendable, Hashable, Codable {
    /// "manual", "auto", "continuous", or "fixed" for a lens that cannot move.
    public var mode: String
    /// idle / scanning / focused / failed.
    public var state: AutofocusState
    /// The AF point (normalized 0…1).
    public var pointX: Double
    /// The AF point (normalized 0…1).
    public var pointY: Double
    /// Who focuses: "camera" (the IPA's AF), "contrast" (Pinhole's), or "none".
    public var method: String
}
