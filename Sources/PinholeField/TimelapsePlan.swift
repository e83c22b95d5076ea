// What a timelapse asks for (interval, count, daily window, album, lock) and the wall-clock grid it shoots on.

import PinholeCore

/// A daily time window in local time, "HH:MM" to "HH:MM"; it may wrap past midnight.
public struct DailyWindow: Sendable, Hashable {
    /// Start, in minutes after local midnight (inclusive).
    public var fromMinute: Int
    /// End, in minutes after local midnight (exclusive).
    public var toMinute: Int

    /// Creates a window.
    public init(fromMinute: Int, toMinute: Int) {
        self.fromMinute = fromMinute
        self.toMinute = toMinute
    }

    /// Parses "HH:MM" into minutes after midnight; nil when malformed.
    public static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        return hour * 60 + minute
    }

    /// Whether a local time of day (seconds after midnight) lies inside.
    public func contains(secondOfDay: Int64) -> Bool {
        let from = Int64(fromMinute) * 60
        let to = Int64(toMinute) * 60
        if from == to { return true }
        return from < to
            ? secondOfDay >= from && secondOfDay < to : secondOfDay >= from || secondOfDay < to
    }

    /// "HH:MM-HH:MM".
    public var description: String { Self.text(fromMinute) + "-" + Self.text(toMinute) }

    /// "HH:MM" of a minute of the day.
    public static func text(_ minute: Int) -> String { twoDigits(minute / 60) + ":" + twoDigits(minute % 60) }
}

/// A timelapse request.
public struct TimelapsePlan: Sendable, Hashable {
    /// Time between slots, in milliseconds (at least one second).
    public var intervalMs: Int64
    /// Slots to run (taken or missed) before the timelapse ends; nil: until stopped.
    public var count: Int?
    /// Shoot only inside this daily window (local time); nil: all day.
    public var window: DailyWindow?
    /// Album the photos go into (created when missing); nil: none.
    public var album: String?
    /// Keep the first shot's exposure and focus for the whole run.
    public var lock: Bool

    /// The shortest interval: one second (a full-resolution still takes a good part of it).
    public static let minimumIntervalMs: Int64 = 1000
    /// The longest interval: one day.
    public static let maximumIntervalMs: Int64 = 86_400_000

    /// Creates a plan; `validate()` checks it.
    public init(
        intervalMs: Int64, count: Int? = nil, window: DailyWindow? = nil, album: String? = nil,
        lock: Bool = false
    ) {
        self.intervalMs = intervalMs
        self.count = count
        self.window = window
        self.album = album
        self.lock = lock
    }

    /// Parses a duration: seconds ("10", "2.5"), or a number with s, m or h ("30s", "5m", "1h").
    public static func parseDuration(_ text: String) -> Int64? { DurationText.milliseconds(text) }

    /// "10s", "5m", "1h" style text of an interval.
    public static func durationText(_ ms: Int64) -> String { DurationText.text(ms) }

    /// Throws a usage-style message when the plan cannot run.
    public func validate() throws {
        guard intervalMs >= Self.minimumIntervalMs, intervalMs <= Self.maximumIntervalMs else {
            throw TimelapseError.invalid("the interval must be between 1 s and 24 h")
        }
        if let count, count < 1 || count > 10_000_000 {
            throw TimelapseError.invalid("--count must be between 1 and 10000000")
        }
        if let album {
            guard !album.isEmpty, album.count <= 200,
                !album.contains(where: { $0.isNewline || $0 == "\"" || $0 == "\\" })
            else {
                throw TimelapseError.invalid(
                    "the album name must be 1-200 characters, without quotes, backslashes or line breaks")
            }
        }
    }
}

/// Slots on the wall clock: slot k starts k × interval after the local epoch, so a 10 s
/// timelapse shoots at :00, :10, :20 … and a 1 h one on the hour, whenever it was started.
/// Slot times are computed from the index, never from the previous shot: nothing drifts.
public struct TimelapseGrid: Sendable, Hashable {
    /// Interval in milliseconds.
    public var intervalMs: Int64
    /// The UTC offset the grid is aligned in (seconds east).
    public var utcOffsetSeconds: Int32

    /// Creates a grid.
    public init(intervalMs: Int64, utcOffsetSeconds: Int32) {
        self.intervalMs = intervalMs
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    private var intervalNs: Int64 { intervalMs * 1_000_000 }

    private func localNanoseconds(_ time: WallTime) -> Int64 {
        (time.secondsSince1970 + Int64(utcOffsetSeconds)) * 1_000_000_000 + Int64(time.nanoseconds)
    }

    /// The wall time of slot `index`.
    public func time(ofSlot index: Int64) -> WallTime {
        let local = index * intervalNs
        let utc = local - Int64(utcOffsetSeconds) * 1_000_000_000
        var seconds = utc / 1_000_000_000
        var nanos = utc % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        return WallTime(
            secondsSince1970: seconds, nanoseconds: Int32(nanos), utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The first slot at or after `time`.
    public func slot(atOrAfter time: WallTime) -> Int64 {
        let local = localNanoseconds(time)
        let (quotient, remainder) = local.quotientAndRemainder(dividingBy: intervalNs)
        return remainder > 0 ? quotient + 1 : (remainder < 0 ? quotient : quotient)
    }

    /// The last slot at or before `time`.
    public func slot(atOrBefore time: WallTime) -> Int64 {
        let local = localNanoseconds(time)
        let (quotient, remainder) = local.quotientAndRemainder(dividingBy: intervalNs)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// Whether slot `index` falls inside `window` (always, without one).
    public func isInside(_ index: Int64, window: DailyWindow?) -> Bool {
        guard let window else { return true }
        var secondOfDay = (index * intervalNs / 1_000_000_000) % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400 }
        return window.contains(secondOfDay: secondOfDay)
    }
}

/// Errors of timelapse requests.
public enum TimelapseError: Error, CustomStringConvertible, Equatable {
    /// The request cannot run.
    case invalid(String)
    /// Another timelapse runs.
    case alreadyRunning
    /// None runs.
    case notRunning

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .invalid(let why): return why
        case .alreadyRunning: return "a timelapse is already running: `timelapse stop` it first"
        case .notRunning: return "no timelapse is running"
        }
    }
}
