// Parses the dates of `--from`/`--to`: YYYY-MM-DD, optionally with a time and a UTC offset.

import PinholeCore
import PinholeLibrary

/// Dates typed on the command line.
enum DateArgument {
    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS`, each optionally followed
    /// by `Z` or `±HH:MM`; without an offset the time is UTC.
    static func parse(_ text: String, option: String) throws -> WallTime {
        let failure = LibraryError.invalidRequest(
            "--\(option) needs a date like 2026-11-21, 2026-11-21T08:30 or 2026-11-21T08:30:00+01:00, not '\(text)'"
        )
        var body = Substring(text)
        var offset = 0
        if body.hasSuffix("Z") {
            body = body.dropLast()
        } else if body.count > 10, let sign = body.dropFirst(10).lastIndex(where: { $0 == "+" || $0 == "-" })
        {
            let parts = body[body.index(after: sign)...].split(separator: ":")
            guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
                hours < 24, minutes < 60
            else { throw failure }
            offset = (hours * 3600 + minutes * 60) * (body[sign] == "-" ? -1 : 1)
            body = body[..<sign]
        }
        let halves = body.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { throw failure }
        let date = halves[0].split(separator: "-").compactMap { Int($0) }
        let time = halves.count == 2 ? halves[1].split(separator: ":").compactMap { Int($0) } : [0, 0]
        guard date.count == 3, (2...3).contains(time.count), (1...12).contains(date[1]),
            (1...31).contains(date[2]),
            (0...23).contains(time[0]), (0...59).contains(time[1]),
            (0...59).contains(time.count == 3 ? time[2] : 0)
        else { throw failure }
        let days = daysFromCivil(year: date[0], month: date[1], day: date[2])
        let local =
            Int64(days) * 86_400 + Int64(time[0] * 3600 + time[1] * 60 + (time.count == 3 ? time[2] : 0))
        return WallTime(secondsSince1970: local - Int64(offset), utcOffsetSeconds: Int32(offset))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
