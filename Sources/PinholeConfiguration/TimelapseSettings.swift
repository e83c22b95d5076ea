// The configuration file's [timelapse] table: a timelapse that starts when the appliance does.

import PinholeCore
import SystemPackage

/// `[timelapse]`: every, count, from/to, album, lock — the same as `timelapse start`.
public struct TimelapseSettings: Sendable, Hashable {
    /// `every`: interval in milliseconds ("10s", "5m", "1h", or a number of seconds).
    public var everyMs: Int64
    /// `count`: slots before it ends (nil: until stopped).
    public var count: Int?
    /// `from` and `to`: the daily window as minutes after local midnight.
    public var window: (from: Int, to: Int)?
    /// `album`: the album the photos go into.
    public var album: String?
    /// `lock`: keep the first shot's exposure and focus.
    public var lock = false

    /// Equal when every key is.
    public static func == (lhs: TimelapseSettings, rhs: TimelapseSettings) -> Bool {
        lhs.everyMs == rhs.everyMs && lhs.count == rhs.count && lhs.window?.from == rhs.window?.from
            && lhs.window?.to == rhs.window?.to && lhs.album == rhs.album && lhs.lock == rhs.lock
    }

    /// Hashes the interval, count and album.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(everyMs)
        hasher.combine(count)
        hasher.combine(album)
    }

    static func parse(_ table: TOMLTable, file: FilePath) throws -> TimelapseSettings {
        var r = TableReader(table: table, file: file, context: "[timelapse]")
        let line = table.line(of: "every")
        var every: Int64?
        switch table["every"] {
        // Checked before it is scaled: `every = 9223372036854775807` overflowed into a trap.
        case .integer(let seconds)?: every = (1...86_400).contains(seconds) ? Int64(seconds) * 1000 : nil
        case .string(let text)?: every = DurationText.milliseconds(text)
        case nil:
            throw ConfigurationError(file: file, line: table.line, reason: "missing 'every' in [timelapse]")
        default: every = nil
        }
        r.markUsed("every")
        guard let every, every >= 1000, every <= 86_400_000 else {
            throw ConfigurationError(
                file: file, line: line,
                reason: "[timelapse] every must be between 1 s and 24 h: seconds, or \"30s\", \"5m\", \"1h\"")
        }
        var settings = TimelapseSettings(everyMs: every)
        settings.count = try r.integer("count", in: 1...10_000_000)
        let from = try r.string("from")
        let to = try r.string("to")
        if from != nil || to != nil {
            guard let from, let to, let start = minute(from), let end = minute(to) else {
                throw ConfigurationError(
                    file: file, line: table.line(of: from == nil ? "to" : "from"),
                    reason: "[timelapse] from and to go together, as \"HH:MM\" (00:00-23:59)")
            }
            settings.window = (start, end)
        }
        if let album = try r.string("album") {
            guard !album.isEmpty, album.count <= 200,
                !album.contains(where: { $0.isNewline || $0 == "\"" || $0 == "\\" })
            else {
                throw ConfigurationError(
                    file: file, line: table.line(of: "album"),
                    reason:
                        "[timelapse] album must be 1-200 characters, without quotes, backslashes or line breaks"
                )
            }
            settings.album = album
        }
        settings.lock = try r.bool("lock") ?? false
        try r.rejectUnknown()
        return settings
    }

    private static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        return hour * 60 + minute
    }
}
