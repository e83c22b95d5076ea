// Decodes the bytes a terminal sends (keys, escape sequences, UTF-8) into key presses.
//
// Self-contained (standard library only) so that the fuzz target under fuzz/console can
// compile it on its own.

/// A key press as the console understands it.
public enum TerminalKey: Hashable, Sendable {
    /// A printable character.
    case character(Character)
    /// Enter: CR, LF or CRLF (one press), or the keypad's Enter.
    case enter
    /// Tab.
    case tab
    /// Shift-Tab (`ESC [ Z`).
    case backtab
    /// Backspace: BS (0x08) or DEL (0x7F); terminals send either.
    case backspace
    /// The Delete key (`ESC [ 3 ~`).
    case delete
    /// A lone Escape (no sequence followed within the timeout), or Escape before an Alt-key.
    case escape
    /// Cursor keys, in their normal (`ESC [ A`) and application (`ESC O A`) forms.
    case up, down, left, right
    /// Home and End in every common form (`ESC [ H`, `ESC O H`, `ESC [ 1 ~`, `ESC [ 7 ~` …).
    case home, end
    /// Page keys (`ESC [ 5 ~`, `ESC [ 6 ~`).
    case pageUp, pageDown
    /// Insert (`ESC [ 2 ~`).
    case insert
    /// Function keys F1…F12.
    case function(Int)
    /// Ctrl-C.
    case interrupt
    /// Another control key, by its letter: Ctrl-A is `control("a")`.
    case control(Character)
}

/// Turns a terminal's byte stream into `TerminalKey`s.
///
/// A value-type state machine: `feed(_:)` takes bytes and returns the keys completed so far;
/// an incomplete escape sequence or UTF-8 character waits for more bytes, and `flush()`
/// (called by the shell after a short silence) resolves it: a lone ESC becomes `.escape`,
/// a broken sequence is dropped. Any byte sequence is accepted; nothing grows without bound.
public struct TerminalDecoder: Sendable {
    private enum State: Sendable, Equatable {
        case ground
        case escape
        case csi
        case ss3
        case utf8(remaining: Int)
    }

    private var state: State = .ground
    private var sequence: [UInt8] = []
    private var lastWasCR = false
    /// The longest escape sequence kept; a longer one is dropped whole.
    public static let maximumSequence = 32
    /// Escape sequences dropped because they were unknown, overlong or broken.
    public private(set) var droppedSequences = 0
    /// Bytes that no keyboard sends: invalid or non-printable UTF-8, NUL (a break or a
    /// framing error without marking) and the rare C0 controls 0x1C…0x1F.
    public private(set) var invalidBytes = 0

    /// A decoder in its initial state.
    public init() {}

    /// Whether bytes are waiting for the rest of a sequence (the shell should call `flush`
    /// after a short timeout).
    public var isPending: Bool { state != .ground }

    /// Decodes `bytes`; returns the keys they complete.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [TerminalKey] where Bytes.Element == UInt8 {
        var keys: [TerminalKey] = []
        for byte in bytes { feed(byte, into: &keys) }
        return keys
    }

    /// Resolves a pending sequence after a timeout: a lone ESC is the Escape key; a partial
    /// sequence or character is dropped.
    public mutating func flush() -> [TerminalKey] {
        defer {
            state = .ground
            sequence.removeAll()
        }
        switch state {
        case .escape: return [.escape]
        case .csi, .ss3:
            droppedSequences += 1
            return []
        case .utf8:
            invalidBytes += sequence.count
            return []
        case .ground: return []
        }
    }

    private mutating func feed(_ byte: UInt8, into keys: inout [TerminalKey]) {
        switch state {
        case .ground:
            ground(byte, into: &keys)
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .csi
            case UInt8(ascii: "O"): state = .ss3
            case 0x1B: keys.append(.escape)  // ESC ESC: the first one was a lone Escape
            default:
                keys.append(.escape)  // Alt-key or a stray ESC: Escape, then the byte itself
                state = .ground
                ground(byte, into: &keys)
            }
        case .csi:
            csi(byte, into: &keys)
        case .ss3:
            state = .ground
            if byte < 0x20 || byte == 0x7F {  // a control byte breaks the sequence and counts itself
                droppedSequences += 1
                ground(byte, into: &keys)
                return
            }
            if let key = Self.ss3Key(byte) { keys.append(key) } else { droppedSequences += 1 }
        case .utf8(let remaining):
            guard byte & 0xC0 == 0x80 else {  // not a continuation byte: drop the partial character
                invalidBytes += sequence.count
                sequence.removeAll()
                state = .ground
                ground(byte, into: &keys)
                return
            }
            sequence.append(byte)
            if remaining > 1 {
                state = .utf8(remaining: remaining - 1)
                return
            }
            state = .ground
            var decoded = String(decoding: sequence, as: UTF8.self)
            sequence.removeAll()
            // An overlong form or a surrogate decodes to U+FFFD: dropped.
            if decoded.unicodeScalars.contains(where: { $0 == "\u{FFFD}" }) {
                invalidBytes += 1
                return
            }
            if let character = decoded.popLast(), Self.isPrintable(character) {
                keys.append(.character(character))
            } else {
                invalidBytes += 1
            }
        }
    }

    private mutating func ground(_ byte: UInt8, into keys: inout [TerminalKey]) {
        let afterCR = lastWasCR
        lastWasCR = byte == 0x0D
        switch byte {
        case 0x0D: keys.append(.enter)
        case 0x0A: if !afterCR { keys.append(.enter) }  // CRLF is one Enter
        case 0x1B:
            state = .escape
            sequence.removeAll()
        case 0x08, 0x7F: keys.append(.backspace)
        case 0x09: keys.append(.tab)
        case 0x03: keys.append(.interrupt)
        case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        case 0x00, 0x1C...0x1F: invalidBytes += 1  // NUL (line breaks, framing errors) and rare controls
        case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
        case 0xC2...0xDF:
            sequence = [byte]
            state = .utf8(remaining: 1)
        case 0xE0...0xEF:
            sequence = [byte]
            state = .utf8(remaining: 2)
        case 0xF0...0xF4:
            sequence = [byte]
            state = .utf8(remaining: 3)
        default: invalidBytes += 1  // stray continuation bytes, 0xC0/0xC1, 0xF5…0xFF: never valid UTF-8
        }
    }

    private mutating func csi(_ byte: UInt8, into keys: inout [TerminalKey]) {
        switch byte {
        case 0x20...0x3F:  // parameters and intermediates
            sequence.append(byte)
            if sequence.count > Self.maximumSequence {
                droppedSequences += 1
                sequence.removeAll()
                state = .ground
            }
        case 0x40...0x7E:  // final byte
            let parameters = sequence
            sequence.removeAll()
            state = .ground
            if let key = Self.csiKey(final: byte, parameters: parameters) {
                keys.append(key)
            } else {
                droppedSequences += 1
            }
        default:  // a control byte or a non-ASCII byte breaks the sequence and counts itself
            droppedSequences += 1
            sequence.removeAll()
            state = .ground
            ground(byte, into: &keys)
        }
    }

    /// Arrows, Home and End: the same final byte in their SS3 (`ESC O x`) and CSI (`ESC [ x`) forms.
    private static func cursorKey(_ byte: UInt8) -> TerminalKey? {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        default: return nil
        }
    }

    private static func ss3Key(_ byte: UInt8) -> TerminalKey? {
        if let key = cursorKey(byte) { return key }
        switch byte {
        case UInt8(ascii: "M"): return .enter
        case UInt8(ascii: "P")...UInt8(ascii: "S"): return .function(Int(byte) - Int(UInt8(ascii: "P")) + 1)
        default: return nil
        }
    }

    private static func csiKey(final: UInt8, parameters: [UInt8]) -> TerminalKey? {
        // The first numeric parameter; modifiers after ';' (Ctrl/Shift-arrows) are ignored.
        var first = 0
        var digits = 0
        for byte in parameters {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            if digits < 4 { first = first * 10 + Int(byte - UInt8(ascii: "0")) }
            digits += 1
        }
        if let key = cursorKey(final) { return key }
        switch final {
        case UInt8(ascii: "Z"): return .backtab
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: return .home
            case 2: return .insert
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            case 11...15: return .function(first - 10)
            case 17...21: return .function(first - 11)
            case 23, 24: return .function(first - 12)
            default: return nil
            }
        default: return nil  // cursor reports, mouse, focus events …: ignored
        }
    }

    private static func isPrintable(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }
}
