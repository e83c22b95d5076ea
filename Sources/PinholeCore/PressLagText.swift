// The press-to-exposure lag in words: "0.4 ms before the press", "12.0 ms after the press".

/// Words for how the start of a photo's exposure relates to its shutter press.
public enum PressLagText {
    /// "0.4 ms before the press" for a negative lag (zero shutter lag: the exposure was under
    /// way at the press), "12.0 ms after the press" for a positive one, "at the press" for none.
    public static func relativeToPress(_ lag: Duration) -> String {
        let tenths = (Double(lag.nanoseconds) / 100_000).rounded()
        guard tenths != 0 else { return "at the press" }
        let magnitude = abs(tenths) / 10
        return "\(magnitude) ms " + (tenths < 0 ? "before" : "after") + " the press"
    }

    /// Milliseconds with microsecond precision: "-0.400", "182.000".
    public static func milliseconds(_ duration: Duration) -> String {
        let micros = duration.nanoseconds / 1000
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
