// Parses EXIF date, UTC offset and sub-second strings.

/// EXIF date and time text.
enum ExifDate {
    /// "YYYY:MM:DD HH:MM:SS" as seconds since the epoch of that local time (offset not
    /// applied). Nil for blanks, zeros ("0000:00:00 00:00:00") or out-of-range fields.
    static func parse(_ text: String) -> Int64? {
        let chars = Array(text.utf8)
        guard chars.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard chars[i] >= 0x30, chars[i] <= 0x39 else { return nil }
                value = value * 10 + Int(chars[i] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// "+HH:MM" / "-HH:MM" as seconds east of UTC.
    static func parseOffset(_ text: String) -> Int32? {
        let chars = Array(text.utf8)
        guard chars.count >= 6, chars[0] == 0x2B || chars[0] == 0x2D, chars[3] == 0x3A else { return nil }
        let digits = [chars[1], chars[2], chars[4], chars[5]]
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let d = digits.map { Int32($0 - 0x30) }
        let hours = d[0] * 10 + d[1], minutes = d[2] * 10 + d[3]
        guard hours <= 14, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return chars[0] == 0x2D ? -seconds : seconds
    }

    /// Sub-second digits ("12" is 0.12 s) as nanoseconds.
    static func parseSubSeconds(_ text: String) -> Int32? {
        let digits = Array(text.utf8.prefix(9))
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var value: Int32 = 0
        for i in 0..<9 { value = value * 10 + (i < digits.count ? Int32(digits[i] - 0x30) : 0) }
        return value
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
