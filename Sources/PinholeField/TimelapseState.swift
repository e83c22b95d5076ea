// A running timelapse's durable record: plan, grid, progress and locked exposure, as a small TOML file.

import PinholeCore
import SystemPackage

/// Everything needed to resume a timelapse after a restart or power loss.
public struct TimelapseState: Sendable, Hashable {
    /// What was asked for.
    public var plan: TimelapsePlan
    /// The UTC offset the grid is aligned in.
    public var utcOffsetSeconds: Int32
    /// When it was started.
    public var startedAt: WallTime
    /// The next slot not yet dealt with (taken, missed or outside the window).
    public var nextSlot: Int64
    /// Photos taken.
    public var taken = 0
    /// Slots missed (camera busy or failed, appliance off, loop late).
    public var missed = 0
    /// The exposure kept by `--lock` (microseconds, gain) once the first shot fixed it.
    public var lockedExposure: (timeUs: Int64, gain: Double)?
    /// The lens position kept by `--lock`, in dioptres.
    public var lockedLens: Double?

    /// Creates a state.
    public init(plan: TimelapsePlan, utcOffsetSeconds: Int32, startedAt: WallTime, nextSlot: Int64) {
        self.plan = plan
        self.utcOffsetSeconds = utcOffsetSeconds
        self.startedAt = startedAt
        self.nextSlot = nextSlot
    }

    /// The grid.
    public var grid: TimelapseGrid {
        TimelapseGrid(intervalMs: plan.intervalMs, utcOffsetSeconds: utcOffsetSeconds)
    }

    /// Slots dealt with inside the window (taken + missed).
    public var slotsDone: Int { taken + missed }

    /// Whether the count is reached.
    public var isFinished: Bool { plan.count.map { slotsDone >= $0 } ?? false }

    /// Equal when their files would be equal.
    public static func == (lhs: TimelapseState, rhs: TimelapseState) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// Hashes the file form.
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    // MARK: File form

    /// The TOML text of the state file.
    public func serialized() -> String {
        var lines = [
            "# Pinhole timelapse in progress (written by the appliance; delete it to forget the run)",
            "interval_ms = \(plan.intervalMs)",
            "utc_offset = \(utcOffsetSeconds)",
            "started = \(startedAt.secondsSince1970)",
            "next_slot = \(nextSlot)",
            "taken = \(taken)",
            "missed = \(missed)",
            "lock = \(plan.lock)",
        ]
        if let count = plan.count { lines.append("count = \(count)") }
        if let window = plan.window {
            lines.append("from = \"\(DailyWindow.text(window.fromMinute))\"")
            lines.append("to = \"\(DailyWindow.text(window.toMinute))\"")
        }
        if let album = plan.album { lines.append("album = \"\(album)\"") }
        if let exposure = lockedExposure {
            lines.append("locked_exposure_us = \(exposure.timeUs)")
            lines.append("locked_gain = \(exposure.gain)")
        }
        if let lens = lockedLens { lines.append("locked_lens = \(lens)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a state file's text; errors name the file, line and reason.
    public static func parse(_ text: String, file: FilePath) throws -> TimelapseState {
        let root = try TOMLDocument.parse(text, file: file)
        var r = TableReader(table: root, file: file, context: "")
        let interval = try r.integer(
            "interval_ms", in: Int(TimelapsePlan.minimumIntervalMs)...Int(TimelapsePlan.maximumIntervalMs))
        guard let interval else {
            throw ConfigurationError(file: file, line: 0, reason: "missing 'interval_ms'")
        }
        var plan = TimelapsePlan(intervalMs: Int64(interval))
        plan.count = try r.integer("count", in: 1...10_000_000)
        plan.lock = try r.bool("lock") ?? false
        plan.album = try r.string("album")
        let from = try r.string("from")
        let to = try r.string("to")
        if from != nil || to != nil {
            guard let from, let to, let start = DailyWindow.minute(from), let end = DailyWindow.minute(to)
            else {
                throw ConfigurationError(
                    file: file, line: root.line(of: "from"), reason: "'from' and 'to' must both be HH:MM")
            }
            plan.window = DailyWindow(fromMinute: start, toMinute: end)
        }
        let offset = try r.integer("utc_offset", in: -86_400...86_400) ?? 0
        let started = try r.integer("started") ?? 0
        guard let next = try r.integer("next_slot") else {
            throw ConfigurationError(file: file, line: 0, reason: "missing 'next_slot'")
        }
        var state = TimelapseState(
            plan: plan, utcOffsetSeconds: Int32(offset),
            startedAt: WallTime(secondsSince1970: Int64(started)),
            nextSlot: Int64(next))
        state.taken = try r.integer("taken", in: 0...Int.max) ?? 0
        state.missed = try r.integer("missed", in: 0...Int.max) ?? 0
        if let time = try r.integer("locked_exposure_us", in: 1...Int.max) {
            state.lockedExposure = (Int64(time), try r.number("locked_gain", in: 0.01...1000) ?? 1)
        } else {
            r.markUsed("locked_gain")
        }
        state.lockedLens = try r.number("locked_lens", in: 0...1000)
        try r.rejectUnknown()
        return state
    }
}
