// The C library's pow, without pulling in Foundation.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pow` from the C library.
@inline(__always)
func cPow(_ a: Double, _ b: Double) -> Double { pow(a, b) }
