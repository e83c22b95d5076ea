// Hostile command lines and bytes for line mode, generated from the forms `help --json` lists.

import Foundation
import PinholeConsole
import PinholeSim

/// Generates line-mode input from every form of the command catalog: hostile words for the
/// placeholders, words left out or one too many, and hostile bytes in the line (invalid UTF-8,
/// NUL, broken escape sequences, Ctrl-C, editing keys) with every line ending. Deterministic
/// for a seed. Each line it makes is exactly one line for the reader: it holds no line
/// ending of its own.
public struct CommandScript {
    /// The forms' usage strings (from `help --json`).
    public let forms: [String]
    private var random: SplitMix64
    /// How the previous line ended (a bare LF after a CR would join it, as CRLF).
    private var lastTerminator: [UInt8] = []

    /// Hostile words for placeholders.
    static let hostile = [
        "nan", "NaN", "inf", "-inf", "infinity", "1e308", "-1e308", "1e-320", "-1", "0", "-0", "1", "2",
        "0.5",
        "99999999999999999999", "9223372036854775807", "-9223372036854775808", "18446744073709551616", "",
        "0x10", "1_000", "+5", ".", "-", "--json", "--timer", "--burst", "--bounce", "--max", "--pre", "off",
        "on", "auto",
        "\u{0}", "\u{1B}[2J", "🙂", "a b", "\"", "'", "\\", String(repeating: "9", count: 400),
        String(repeating: "x", count: 1000), "4056x3040", "0x0", "-5x-5", "lock", "current",
    ]

    /// A generator for `seed` over the catalog's forms.
    public init(seed: UInt64) {
        random = SplitMix64(seed: seed &+ 0x5C41_7074)
        forms = Self.usages(inHelpJSON: CommandCatalog.helpJSON)
    }

    /// The `command` values of `help --json`.
    public static func usages(inHelpJSON json: String) -> [String] {
        let list = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: String]]
        return list?.compactMap { $0["command"] } ?? []
    }

    /// One command line generated from a usage form.
    public mutating func line() -> String {
        let form = pick(forms)
        var words: [String] = []
        for token in form.split(separator: " ").map(String.init) {
            let roll = random.next() % 10
            if token.hasPrefix("[") {
                if roll < 5 { words.append(token.trimmingCharacters(in: ["[", "]"])) }
                continue
            }
            if roll == 0 { continue }  // a word left out
            if roll == 1 {
                words.append(pick(Self.hostile))
                continue
            }
            if token == "|" { break }  // "a … | b …": the first alternative
            if token.contains("|") {
                words.append(pick(token.split(separator: "|").map(String.init)))
            } else if token == "…" {
                for _ in 0..<(random.next() % 4) { words.append(pick(Self.hostile)) }
            } else if token.uppercased() == token, token.contains(where: \.isLetter) {
                words.append(pick(Self.hostile))
            } else {
                words.append(token)
            }
        }
        if random.next() % 20 == 0 { words.append(pick(Self.hostile)) }  // one too many
        return words.joined(separator: " ")
    }

    /// Bytes that make a line hostile at the byte level, none of them a line ending.
    static let hostileBytes: [[UInt8]] = [
        [0xFF], [0xFE, 0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x00], [0x1B],
        [0x1B, 0x5B],
        [0x1B, 0x5B, 0x39, 0x39, 0x39], [0x1B, 0x4F], [0x03], [0x7F], [0x08], [0x01], [0x1C], [0x09],
    ]

    /// The line as bytes with a line ending (LF, CR or CRLF), sometimes with hostile bytes
    /// put in. Hostile bytes that would end the line early with the line that follows them
    /// (`ESC O` before an `M` is the keypad's Enter) are left out, so the bytes stay one line.
    public mutating func bytes(for line: String) -> [UInt8] {
        var bytes = Array(line.utf8)
        if random.next() % 8 == 0 {
            let hostile = pick(Self.hostileBytes)
            let at = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
            var spoilt = bytes
            spoilt.insert(contentsOf: hostile, at: at)
            if !Self.holdsEnter(spoilt) { bytes = spoilt }
        }
        var ending: [UInt8] = [[0x0A], [0x0D], [0x0D, 0x0A]][Int(random.next() % 3)]
        if ending == [0x0A], lastTerminator == [0x0D], bytes.isEmpty { ending = [0x0D] }
        lastTerminator = ending
        return bytes + ending
    }

    /// Whether a terminal decoder reads an Enter key in `bytes` (a line ending, or the
    /// keypad's Enter `ESC O M`).
    static func holdsEnter(_ bytes: [UInt8]) -> Bool {
        var decoder = TerminalDecoder()
        return decoder.feed(bytes).contains(.enter)
    }

    /// `count` generated lines as bytes, each with its line ending: a script for a pipe.
    public mutating func script(lines count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<count {
            let line = line()
            bytes += self.bytes(for: line)
        }
        return bytes
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
}
