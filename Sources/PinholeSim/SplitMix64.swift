// A small seeded random generator, so that simulations are reproducible.

/// SplitMix64: a fast, seedable pseudo-random generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A stateless hash of a few integers to 0..<256, for per-pixel noise.
@inlinable
public func noiseHash(_ x: Int, _ y: Int, _ seed: UInt64) -> Int {
    var z =
        UInt64(truncatingIfNeeded: x) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: y)
        &* 0xC2B2_AE3D_27D4_EB4F ^ seed
    z = (z ^ (z >> 29)) &* 0xBF58_476D_1CE4_E5B9
    return Int(truncatingIfNeeded: (z ^ (z >> 32)) & 0xFF)
}
