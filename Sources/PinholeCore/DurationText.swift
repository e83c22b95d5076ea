// Durations as people type them in commands and configuration: "10", "2.5", "30s", "5m", "1h".

/// Reads and writes durations in seconds, or with an s, m or h suffix.
public enum DurationText {
    /// Milliseconds of `text` (seconds, or a number with s, m or h); nil when malformed.
    public static func milliseconds(_ text: String) -> Int64? {
        var number = Substring(text)
        var scale = 1000.0
        if let unit = number.last, ["s", "m", "h"].contains(unit) {
            scale = unit == "s" ? 1000 : unit == "m" ? 60_000 : 3_600_000
            number = number.dropLast()
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1, number.first != ".", number.last != ".",
            let value = Double(number), value.isFinite, value <= 1e9
        else { return nil }
        return Int64((value * scale).rounded())
    }

    /// "10s", "5m", "1h", or "2.5s".
    public static func text(_ ms: Int64) -> String {
        if ms > 0, ms % 3_600_000 == 0 { return "\(ms / 3_600_000)h" }
        if ms > 0, ms % 60_000 == 0 { return "\(ms / 60_000)m" }
        if ms % 1000 == 0 { return "\(ms / 1000)s" }
        return "\(Double(ms) / 1000)s"
    }
}

extension DurationText {
    /// A clip's length as lists show it: tenths of a second, `3.0 s`, `12.4 s`; from a minute
    /// on, minutes and seconds, `1:05`, `10:00`.
    public static func clipLength(_ duration: Duration) -> String {
        let tenths = max(0, (duration.nanoseconds + 50_000_000) / 100_000_000)
        if tenths < 600 { return "\(tenths / 10).\(tenths % 10) s" }
        let seconds = tenths / 10
        let remainder = seconds % 60
        return "\(seconds / 60):\(remainder < 10 ? "0" : "")\(remainder)"
    }
}
