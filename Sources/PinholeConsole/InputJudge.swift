// Judges a burst of console input as a whole: what a person could have typed, or line noise.

/// Tells keystrokes from line noise. A person sends one key at a time (a key's escape
/// sequence arrives together); noise is bytes no keyboard sends, or several keys within a
/// few milliseconds. A value type keeping the decoder state between bursts.
public struct InputJudge: Sendable {
    /// The verdict on one burst.
    public enum Verdict: Sendable, Equatable {
        /// What a person could have typed; `keys` decoded, `isEnter` when it is exactly Enter.
        case typed(keys: Int, isEnter: Bool)
        /// Noise, with the reason for the log.
        case noise(String)
    }

    private var decoder = TerminalDecoder()
    /// Control keys a person uses here (line editing, redraw, interrupt, end of input).
    static let knownControls: Set<Character> = ["a", "c", "d", "e", "k", "l", "u", "w"]

    /// A judge with no input seen.
    public init() {}

    /// Judges a menu burst: it must be exactly one key (or the LF of a CRLF split off).
    /// Any partial sequence left at the end of the burst counts (it is resolved now).
    public mutating func judgeKeystroke(_ bytes: [UInt8]) -> Verdict {
        let verdict = judge(bytes, flush: true)
        if case .typed(let keys, _) = verdict, keys > 1 {
            return .noise("\(keys) keys within a few milliseconds")
        }
        return verdict
    }

    /// Judges a line-mode chunk: any number of keys, but nothing a keyboard does not send.
    /// A sequence or character cut at the end of the chunk waits for the next one.
    public mutating func judgeText(_ bytes: [UInt8]) -> Verdict {
        judge(bytes, flush: false)
    }

    /// Forgets any partial sequence (after a quiet wait or a mode switch).
    public mutating func reset() { decoder = TerminalDecoder() }

    private mutating func judge(_ bytes: [UInt8], flush: Bool) -> Verdict {
        let invalid = decoder.invalidBytes
        let dropped = decoder.droppedSequences
        var keys = decoder.feed(bytes)
        if flush { keys += decoder.flush() }
        if decoder.invalidBytes > invalid {
            return .noise(
                "\(decoder.invalidBytes - invalid) bytes that are not text (invalid UTF-8 or controls)")
        }
        if decoder.droppedSequences > dropped { return .noise("an unknown or broken escape sequence") }
        for key in keys {
            if case .control(let letter) = key, !Self.knownControls.contains(letter) {
                return .noise("control character Ctrl-\(letter.uppercased())")
            }
        }
        return .typed(keys: keys.count, isEnter: keys == [.enter])
    }
}
