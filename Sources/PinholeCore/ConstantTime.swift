// Comparing secrets (PIN hashes, session and CSRF tokens) in time independent of their content.

/// Whether `a` and `b` are the same bytes; the time taken depends only on their lengths, not
/// on where they first differ.
public func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
}
