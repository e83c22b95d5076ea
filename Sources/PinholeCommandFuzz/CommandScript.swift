// Hostile command lines and bytes for line mode, generated from the forms `help --json` lists.

import Foundation
import PinholeConsole
import PinholeSim
import SystemPackage

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
        String(repeating: "x", count: 1000), "4056x3040", "0x0", "-5x-5", "lock", "current", "3", "30",
        "64x48", "2026-11-21", "2026-13-40T25:61", "51.5,-0.1", "91,181", "nan,nan", "0,0,10,10",
        "-1,-1,1e308,1",
    ]

    /// Where `library import`, `export` and `thumbnail --out` may read and write: the only
    /// words a `DIR` or `FILE` becomes (never a hostile word, which could name the working
    /// directory or the root).
    public let paths: [FilePath]
    /// Identifiers an `ID` or `ALBUM` becomes besides hostile words (the library's photos).
    public var ids: [String]

    /// A generator for `seed` over the catalog's forms; `library …` lines use the library
    /// language's forms (`libraryForms`) with `paths` for folders and files.
    public init(seed: UInt64, paths: [FilePath] = ["in", "out", "out/thumb.jpg"], ids: [String] = []) {
        random = SplitMix64(seed: seed &+ 0x5C41_7074)
        forms = Self.usages(inHelpJSON: CommandCatalog.helpJSON)
        self.paths = paths
        self.ids = ids
    }

    /// The `library …` language's forms (`library help`), in the catalog's usage syntax.
    /// `CommandFuzzTests.testTheLibraryFormsCoverEveryLibraryCommand` checks that every
    /// command of `library help` is here.
    public static let libraryForms = [
        "library list [--type photo|video|live|TYPE] [--camera ID] [--album ALBUM] [--favorites] [--edited] [--hidden] [--deleted] [--from DATE] [--to DATE] [--sort created|added|modified|size|album|SORT] [--desc] [--limit N] [--offset N] [--with-location] [--without-location] [--near LATLON] [--within KM] [--clock synchronized|gps|unsynchronized|unknown|CLOCK] [--json]",
        "library count [--type photo|video|live|TYPE] [--deleted] [--favorites] [--json]",
        "library show ID [--json]",
        "library albums [--json]",
        "library album create NAME [--folder ID]",
        "library album add ALBUM ID …",
        "library album remove ALBUM ID …",
        "library album rename ALBUM NAME",
        "library album delete ALBUM",
        "library album list ALBUM [--json]",
        "library folder create NAME [--folder ID]",
        "library smart all|recent|favorites|videos|live|camera|edited|hidden|deleted|NAME [--camera ID] [--json]",
        "library favorite ID … [--off]",
        "library hide ID … [--off]",
        "library delete ID …",
        "library restore ID …",
        "library purge ID …",
        "library purge --all",
        "library fsck [--verify] [--json]",
        "library redate ID … --by SECONDS",
        "library redate --from DATE --to DATE [--type photo|video|live|TYPE] --by SECONDS",
        "library import DIR [--json]",
        "library export DIR [--album ALBUM] [--rendered] [--type photo|video|live|TYPE] [--json]",
        "library exports [--json]",
        "library export --redo N",
        "library export --forget N",
        "library thumbnail ID --size WXH [--mode fit|fill|MODE] [--original] [--out FILE] [--force]",
        "library edit show|revert ID [--json]",
        "library edit rotate ID [--degrees 90|180|270|N]",
        "library edit crop ID --rect RECT",
        "library edit adjust ID [--exposure EV] [--contrast C] [--vignette V]",
        "library help",
    ]

    /// The `command` values of `help --json`.
    public static func usages(inHelpJSON json: String) -> [String] {
        let list = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: String]]
        return list?.compactMap { $0["command"] } ?? []
    }

    /// One command line generated from a usage form.
    public mutating func line() -> String {
        var form = pick(forms)
        if form == "library …" { form = pick(Self.libraryForms) }
        var words: [String] = []
        var skipping = false
        for raw in form.split(separator: " ").map(String.init) {
            // An optional group `[--max SECONDS]` is left out or put in as a whole.
            if raw.hasPrefix("[") { skipping = random.next() % 2 == 0 }
            let closes = raw.hasSuffix("]")
            defer { if closes { skipping = false } }
            if skipping { continue }
            let token = raw.trimmingCharacters(in: ["[", "]"])
            if token == "DIR" || token == "FILE" {
                // A path only ever names the sandbox (or is left out).
                if random.next() % 10 != 0 { words.append(pick(paths).string) }
                continue
            }
            let roll = random.next() % 10
            if roll == 0 { continue }  // a word left out
            if roll == 1 {
                words.append(pick(Self.hostile))
                continue
            }
            if token == "|" { break }  // "a … | b …": the first alternative
            if token.contains("|") {
                words.append(pick(token.split(separator: "|").map(String.init)))
            } else if token == "…" {
                for _ in 0..<(random.next() % 4) { words.append(placeholder("ID")) }
            } else if token.uppercased() == token, token.contains(where: \.isLetter) {
                words.append(placeholder(token))
            } else {
                words.append(token)
            }
        }
        if random.next() % 20 == 0 { words.append(pick(Self.hostile)) }  // one too many
        return words.joined(separator: " ")
    }

    /// A word for a placeholder: mostly hostile, sometimes one of the library's own ids.
    private mutating func placeholder(_ token: String) -> String {
        if ["ID", "ALBUM"].contains(token), !ids.isEmpty, random.next() % 2 == 0 {
            let id = pick(ids)
            // The whole id or a prefix of it (`show ID` takes a unique prefix).
            return random.next() % 2 == 0 ? id : String(id.prefix(1 + Int(random.next() % 8)))
        }
        return pick(Self.hostile)
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
