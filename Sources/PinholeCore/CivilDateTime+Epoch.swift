// Days since the Unix epoch for a civil date (the inverse of CivilDateTime's breakdown).

extension CivilDateTime {
    /// Days from 1970-01-01 to `year-month-day` (proleptic Gregorian; Howard Hinnant's
    /// days_from_civil).
    public static func epochDays(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
