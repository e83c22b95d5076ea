// Unsigned and signed EXIF rationals, and best rational approximations of real numbers.

/// An EXIF RATIONAL (two unsigned 32-bit integers) or SRATIONAL (two signed).
struct Rational: Equatable, Sendable {
    var numerator: Int64
    var denominator: Int64

    /// The value, or nil when the denominator is zero.
    var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }

    /// The closest fraction to `x` whose denominator is at most `maxDenominator` and whose
    /// numerator fits in `numeratorLimit` (continued fractions). So 1/120, 1/3 and 1.8 come out
    /// exact as 1/120, 1/3 and 9/5.
    static func approximating(
        _ x: Double, maxDenominator: Int64 = 1_000_000,
        numeratorLimit: Int64 = Int64(UInt32.max)
    ) -> Rational {
        guard x.isFinite else { return Rational(numerator: 0, denominator: 1) }
        let sign: Int64 = x < 0 ? -1 : 1
        let target = abs(x)
        if target >= Double(numeratorLimit) {
            return Rational(numerator: sign * numeratorLimit, denominator: 1)
        }
        // Convergents h/k of the continued fraction of target.
        var (h0, h1): (Int64, Int64) = (0, 1)
        var (k0, k1): (Int64, Int64) = (1, 0)
        var remainder = target
        for _ in 0..<64 {
            let a = Int64(remainder.rounded(.down))
            let h2 = a * h1 + h0, k2 = a * k1 + k0
            if k2 > maxDenominator || h2 > numeratorLimit { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let fraction = remainder - Double(a)
            if fraction < 1e-12 || abs(Double(h1) / Double(k1) - target) < 1e-15 * max(1, target) { break }
            remainder = 1 / fraction
        }
        if k1 == 0 {
            return Rational(numerator: sign * min(numeratorLimit, Int64(target.rounded())), denominator: 1)
        }
        return Rational(numerator: sign * h1, denominator: k1)
    }
}
