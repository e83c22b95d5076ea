// Blink patterns: on/off times, a count of blinks per group, a pause between groups, a number of groups.

import PinholeCore

/// A blink pattern: groups of `count` on/off cycles separated by `pause`, played `groups`
/// times (nil: until replaced). A nil `count` blinks on/off until replaced.
public struct BlinkPattern: Sendable, Hashable {
    /// A name for status reports ("busy", "error-3" …).
    public var name: String
    /// Time on per cycle.
    public var on: Duration
    /// Time off per cycle.
    public var off: Duration
    /// Cycles per group; nil repeats on/off until replaced.
    public var count: Int?
    /// Extra time off between groups.
    public var pause: Duration
    /// Groups; nil repeats the group until replaced.
    public var groups: Int?
    /// Played as a transient pattern: the steady level to rest at when it ends (nil: the
    /// steady state from before).
    public var after: Bool?

    /// Creates a pattern.
    public init(
        name: String = "blink", on: Duration, off: Duration, count: Int?, pause: Duration = .zero,
        groups: Int? = 1, after: Bool? = nil
    ) {
        self.name = name
        self.on = on
        self.off = off
        self.count = count
        self.pause = pause
        self.groups = groups
        self.after = after
    }

    /// Whether the pattern ever ends by itself.
    public var isFinite: Bool { count != nil && groups != nil }

    /// The (level, duration) steps of the whole pattern when finite, or of one repeating
    /// period when not. Zero-length steps are dropped.
    func steps() -> [(on: Bool, duration: Duration)] {
        var group: [(on: Bool, duration: Duration)] = []
        for _ in 0..<(count ?? 1) {
            group.append((true, on))
            group.append((false, off))
        }
        if count != nil, pause > .zero { group.append((false, pause)) }
        var all: [(on: Bool, duration: Duration)] = []
        if count != nil, let groups {
            for index in 0..<groups {
                // The pause separates groups: none after the last one.
                all += (index == groups - 1 && pause > .zero) ? Array(group.dropLast()) : group
            }
        } else {
            all = group
        }
        return all.filter { $0.duration > .zero }
    }

    /// One short flash (a photo was saved).
    public static let flash = BlinkPattern(name: "saved", on: .milliseconds(150), off: .zero, count: 1)
    /// Fast blink until replaced (busy).
    public static let busy = BlinkPattern(
        name: "busy", on: .milliseconds(100), off: .milliseconds(100), count: nil)
    /// One second on, one off, until replaced (recording, on the capture LED).
    public static let recording = BlinkPattern(
        name: "recording", on: .milliseconds(1000), off: .milliseconds(1000), count: nil)
    /// A short blink every two seconds until replaced (the mode switch at video, on the
    /// capture LED: the shutter records).
    public static let videoMode = BlinkPattern(
        name: "video-mode", on: .milliseconds(100), off: .milliseconds(1900), count: nil)
    /// Slow blink until replaced (low storage).
    public static let slow = BlinkPattern(
        name: "low-storage", on: .milliseconds(500), off: .milliseconds(1500),
        count: nil)

    /// Error code `n`: n short blinks, a pause, the group played `groups` times (nil: until
    /// replaced).
    public static func errorCode(_ n: Int, groups: Int? = 1) -> BlinkPattern {
        BlinkPattern(
            name: "error-\(n)", on: .milliseconds(200), off: .milliseconds(300), count: n,
            pause: .milliseconds(1200), groups: groups)
    }
}

/// What an output shows when no transient pattern is playing.
public enum LEDState: Sendable, Hashable {
    /// Off.
    case off
    /// Steadily on.
    case on
    /// A pattern (usually one that repeats until replaced).
    case pattern(BlinkPattern)

    /// A short name for status reports.
    public var name: String {
        switch self {
        case .off: return "off"
        case .on: return "on"
        case .pattern(let pattern): return pattern.name
        }
    }
}
