// Cuts line-mode input into command lines, robust against whatever bytes arrive.

/// Assembles line-mode input into lines: CR, LF and CRLF end a line; Backspace/DEL erase;
/// Ctrl-C drops the line being typed; escape sequences (arrow keys from a person at a
/// terminal) and other control bytes are ignored. A line holding bytes that are not text
/// (invalid UTF-8, NUL) is reported as `.undecodable`, never run with those bytes left out.
/// A line longer than `maximumLength` is discarded up to its end and reported as
/// `.overlong`, so a flood without newlines never grows memory. Every line terminator ends
/// exactly one piece, so line mode can answer every line.
public struct LineAssembler: Sendable {
    /// One piece of assembled input.
    public enum Piece: Equatable, Sendable {
        /// A complete line (without its terminator).
        case line(String)
        /// A line that was too long; it was discarded.
        case overlong(length: Int)
        /// A line that held this many bytes that are not text (invalid UTF-8, NUL); it was discarded.
        case undecodable(bytes: Int)
    }

    private var decoder = TerminalDecoder()
    private var current: [Character] = []
    private var overflow = 0
    /// Bytes of the current line that were not text.
    private var invalid = 0
    /// The longest line kept, in characters.
    public let maximumLength: Int

    /// An assembler for lines of at most `maximumLength` characters.
    public init(maximumLength: Int = 4096) {
        self.maximumLength = max(1, maximumLength)
    }

    /// Feeds bytes; returns the lines they complete.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Piece] where Bytes.Element == UInt8 {
        var pieces: [Piece] = []
        let before = decoder
        let keys = decoder.feed(bytes)
        guard decoder.invalidBytes != before.invalidBytes else {
            for key in keys { apply(key, into: &pieces) }
            return pieces
        }
        // Some bytes were not text: again one byte at a time, to know which line held them.
        decoder = before
        for byte in bytes {
            let seen = decoder.invalidBytes
            let keys = decoder.feed(CollectionOfOne(byte))
            invalid += decoder.invalidBytes - seen
            for key in keys { apply(key, into: &pieces) }
        }
        return pieces
    }

    /// Input ended: the last line, if unterminated, counts.
    public mutating func finish() -> [Piece] {
        var pieces: [Piece] = []
        let seen = decoder.invalidBytes
        for key in decoder.flush() { apply(key, into: &pieces) }
        invalid += decoder.invalidBytes - seen
        if !current.isEmpty || overflow > 0 || invalid > 0 { apply(.enter, into: &pieces) }
        return pieces
    }

    private mutating func apply(_ key: TerminalKey, into pieces: inout [Piece]) {
        switch key {
        case .character(let character):
            if overflow > 0 || current.count >= maximumLength {
                overflow += 1
            } else {
                current.append(character)
            }
        case .tab:
            if overflow == 0, current.count < maximumLength { current.append(" ") } else { overflow += 1 }
        case .enter:
            if invalid > 0 {
                pieces.append(.undecodable(bytes: invalid))
            } else if overflow > 0 {
                pieces.append(.overlong(length: current.count + overflow))
            } else {
                pieces.append(.line(String(current)))
            }
            current.removeAll(keepingCapacity: true)
            overflow = 0
            invalid = 0
        case .backspace:
            if overflow == 0, !current.isEmpty { current.removeLast() }
        case .interrupt:
            current.removeAll(keepingCapacity: true)
            overflow = 0
            invalid = 0
        default:
            break
        }
    }
}
