// An HTTP Range header (one byte range, RFC 9110) read against the size of the file it asks of.

/// A byte range request's outcome against a file of `size` bytes. Reads any header a client
/// sends (fuzz/web): digits only, at most 18 of them, so no value overflows.
enum ByteRangeRequest: Equatable {
    /// No usable Range header: the whole file (a malformed or multi-range header is
    /// ignored, as RFC 9110 allows).
    case whole
    /// These bytes.
    case part(ClosedRange<Int>)
    /// The range starts past the end: 416.
    case unsatisfiable

    /// Reads `bytes=A-B`, `bytes=A-` or `bytes=-N` against `size`.
    init(header: String?, size: Int) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy(Self.isPosition) else {
            self = .whole
            return
        }
        self = Self.read(first: Int(parts[0]), last: Int(parts[1]), size: size)
    }

    /// At most 18 ASCII digits (an `Int` reads `+5` too, which a range may not say).
    private static func isPosition(_ text: Substring) -> Bool {
        text.utf8.count <= 18 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The outcome of the positions read (nil: empty).
    private static func read(first: Int?, last: Int?, size: Int) -> ByteRangeRequest {
        guard let first else {
            guard let suffix = last else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        }
        if let last, last < first { return .whole }
        guard first < size else { return .unsatisfiable }
        return .part(first...min(last ?? size - 1, size - 1))
    }
}
