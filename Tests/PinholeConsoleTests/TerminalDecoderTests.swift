// The terminal input decoder: every common key encoding, line endings, and bad bytes.

import PinholeConsole
import XCTest

final class TerminalDecoderTests: XCTestCase {
    private func keys(_ text: String, flush: Bool = false) -> [TerminalKey] {
        var decoder = TerminalDecoder()
        var keys = decoder.feed(Array(text.utf8))
        if flush { keys += decoder.flush() }
        return keys
    }

    func testArrowKeysInNormalApplicationAndModifiedForms() {
        XCTAssertEqual(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D"), [.up, .down, .right, .left])
        XCTAssertEqual(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD"), [.up, .down, .right, .left])
        XCTAssertEqual(keys("\u{1B}[1;5A\u{1B}[1;2D"), [.up, .left])
    }

    func testHomeEndPageDeleteAndFunctionKeysInTheirCommonForms() {
        XCTAssertEqual(keys("\u{1B}[H\u{1B}OH\u{1B}[1~\u{1B}[7~"), [.home, .home, .home, .home])
        XCTAssertEqual(keys("\u{1B}[F\u{1B}OF\u{1B}[4~\u{1B}[8~"), [.end, .end, .end, .end])
        XCTAssertEqual(keys("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[2~"), [.pageUp, .pageDown, .delete, .insert])
        XCTAssertEqual(
            keys("\u{1B}OP\u{1B}[15~\u{1B}[24~\u{1B}[Z"),
            [.function(1), .function(5), .function(12), .backtab])
    }

    func testCRLFAndCRLFAreOneEnterEach() {
        XCTAssertEqual(
            keys("a\rb\nc\r\nd\n\n"),
            [
                .character("a"), .enter, .character("b"), .enter,
                .character("c"), .enter, .character("d"), .enter, .enter,
            ])
        XCTAssertEqual(keys("\r\r\n"), [.enter, .enter], "CR, then CRLF")
    }

    func testBackspaceAndDELBothEraseAndControlKeysAreNamed() {
        XCTAssertEqual(
            keys("\u{08}\u{7F}\u{03}\u{01}\t"),
            [.backspace, .backspace, .interrupt, .control("a"), .tab])
    }

    func testLoneEscapeResolvesOnFlushAndAltKeyGivesEscapeThenKey() {
        var decoder = TerminalDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertTrue(decoder.isPending)
        XCTAssertEqual(decoder.flush(), [.escape])
        XCTAssertFalse(decoder.isPending)
        XCTAssertEqual(keys("\u{1B}x"), [.escape, .character("x")])
        XCTAssertEqual(keys("\u{1B}\u{1B}[A"), [.escape, .up])
    }

    func testSequenceSplitAcrossReadsStillDecodes() {
        var decoder = TerminalDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertEqual(decoder.feed(Array("[".utf8)), [])
        XCTAssertEqual(decoder.feed(Array("6~".utf8)), [.pageDown])
    }

    func testUTF8CharactersAreDecodedAndInvalidBytesDropped() {
        XCTAssertEqual(keys("é€😀"), [.character("é"), .character("€"), .character("😀")])
        var decoder = TerminalDecoder()
        // stray continuation, overlong encoding of '/', a surrogate, 0xFF, then a truncated é before 'x'
        let bad: [UInt8] = [0x80, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xFF, 0xC3, UInt8(ascii: "x")]
        XCTAssertEqual(decoder.feed(bad), [.character("x")])
    }

    func testUnterminatedAndOverlongSequencesAreDroppedWithoutEatingLaterKeys() {
        // A sequence broken by Enter: the Enter still counts.
        XCTAssertEqual(keys("\u{1B}[12\rq"), [.enter, .character("q")])
        // An endless parameter string is dropped once too long; what follows decodes.
        let endless = "\u{1B}[" + String(repeating: "1;", count: 100) + "A" + "z"
        var decoder = TerminalDecoder()
        let decoded = decoder.feed(Array(endless.utf8))
        XCTAssertEqual(decoded.last, .character("z"))
        XCTAssertFalse(decoded.contains(.up))
        XCTAssertEqual(decoder.droppedSequences, 1)
        // Unknown finals (cursor reports, mouse) are ignored.
        XCTAssertEqual(keys("\u{1B}[24;80R\u{1B}[?1;2c k"), [.character(" "), .character("k")])
        // A partial sequence at a timeout is dropped, not turned into keys.
        XCTAssertEqual(keys("\u{1B}[1;", flush: true), [])
    }

    func testRandomBytesNeverCrashAndTheDecoderRecovers() {
        var generator = SystemRandomNumberGenerator()
        var decoder = TerminalDecoder()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = decoder.feed(bytes)
        }
        _ = decoder.flush()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[Aok".utf8)), [.up, .character("o"), .character("k")])
    }
}
