// Cuts line-mode input into command lines, robust against whatever bytes arrive.

/// Assembles line-mode input into lines: CR, LF and CRLF end a line; Backspace/DEL erase;
/// Ctrl-C drops the line being typed; escape sequences (arrow keys from a person at a
/// terminal) and other control bytes are ignored; invalid UTF-8 is dropped. A line longer
/// than `maximumLength` is discarded up to its end and reported as `.overlong`, so a flood
/// without newlines never grows memory.
public struct LineAssembler: Sendable {
    /// One piece of assembled input.
    public enum Piece: Equatable, Sendable {
        /// A complete line (without its terminator).
        case line(String)
        /// A line that was too long; it was discarded.
        case overlong(length: Int)
    }

    private var decoder = TerminalDecoder()
    private var current: [Character] = []
    private var overflow = 0
    /// The longest line kept, in characters.
    public let maximumLength: Int

    /// An assembler for lines of at most `maximumLength` characters.
    public init(maximumLength: Int = 4096) {
        self.maximumLength = max(1, maximumLength)
    }

    /// Feeds bytes; returns the lines they complete.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Piece] where Bytes.Element == UInt8 {
        var pieces: [Piece] = []
        for key in decoder.feed(bytes) { apply(key, into: &pieces) }
        return pieces
    }

    /// Input ended: the last line, if unterminated, counts.
    public mutating func finish() -> [Piece] {
        var pieces: [Piece] = []
        for key in decoder.flush() { apply(key, into: &pieces) }
        if !current.isEmpty || overflow > 0 { apply(.enter, into: &pieces) }
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
            if overflow > 0 {
                pieces.append(.overlong(length: current.count + overflow))
            } else {
                pieces.append(.line(String(current)))
            }
            current.removeAll(keepingCapacity: true)
            overflow = 0
        case .backspace:
            if overflow == 0, !current.isEmpty { current.removeLast() }
        case .interrupt:
            current.removeAll(keepingCapacity: true)
            overflow = 0
        default:
            break
        }
    }
}
