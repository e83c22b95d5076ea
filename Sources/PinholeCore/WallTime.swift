// Civil (wall-clock) time with its UTC offset, for photo timestamps.

/// A wall-clock time: seconds since the Unix epoch, sub-second part, and the local UTC offset.
public struct WallTime: Hashable, Sendable, Codable {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64
    /// Nanoseconds within the second (0..<1e9).
    public var nanoseconds: Int32
    /// Offset of local time from UTC, in seconds (east positive).
    public var utcOffsetSeconds: Int32

    /// Creates a wall time.
    public init(secondsSince1970: Int64, nanoseconds: Int32 = 0, utcOffsetSeconds: Int32 = 0) {
        self.secondsSince1970 = secondsSince1970
        self.nanoseconds = nanoseconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The wall time `duration` later (same UTC offset).
    public func adding(_ duration: Duration) -> WallTime {
        let total = Int64(nanoseconds) + duration.nanoseconds
        var seconds = secondsSince1970 + total / 1_000_000_000
        var nanos = total % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        return WallTime(
            secondsSince1970: seconds, nanoseconds: Int32(nanos), utcOffsetSeconds: utcOffsetSeconds)
    }

    /// Local civil date and time fields.
    public var local: CivilDateTime {
        CivilDateTime(epochSeconds: secondsSince1970 + Int64(utcOffsetSeconds))
    }

    /// "YYYY:MM:DD HH:MM:SS" in local time, as EXIF writes dates.
    public var exifDateTime: String { local.exifString }

    /// "+HH:MM" / "-HH:MM", as EXIF OffsetTime* writes offsets.
    public var exifOffset: String {
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let minutes = abs(Int(utcOffsetSeconds)) / 60
        return sign + twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60)
    }

    /// ISO 8601 with offset, e.g. "2026-11-21T08:21:28.120+01:00".
    public var iso8601: String {
        let c = local
        let millis = Int(nanoseconds) / 1_000_000
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(c.year)-\(twoDigits(c.month))-\(twoDigits(c.day))T\(twoDigits(c.hour)):"
            + "\(twoDigits(c.minute)):\(twoDigits(c.second)).\(ms)\(exifOffset)"
    }
}

/// Broken-down civil date and time (proleptic Gregorian calendar).
public struct CivilDateTime: Hashable, Sendable {
    /// Four-digit year.
    public var year: Int
    /// Month 1...12.
    public var month: Int
    /// Day 1...31.
    public var day: Int
    /// Hour 0...23.
    public var hour: Int
    /// Minute 0...59.
    public var minute: Int
    /// Second 0...59.
    public var second: Int

    /// Breaks down seconds since the epoch (already shifted to local time).
    public init(epochSeconds: Int64) {
        var days = epochSeconds / 86_400
        var rem = epochSeconds % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        hour = Int(rem / 3600)
        minute = Int(rem % 3600 / 60)
        second = Int(rem % 60)
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = Int(doy - (153 * mp + 2) / 5 + 1)
        month = Int(mp < 10 ? mp + 3 : mp - 9)
        year = Int(yoe + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// "YYYY:MM:DD HH:MM:SS".
    public var exifString: String {
        "\(year):\(twoDigits(month)):\(twoDigits(day)) \(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))"
    }
}

/// Formats 0...99 with a leading zero.
@inlinable
public func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
