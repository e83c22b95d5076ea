// Line-mode input assembly: terminators, editing bytes, overlong lines, floods.

import PinholeConsole
import XCTest

final class LineAssemblerTests: XCTestCase {
    func testEveryLineEndingAndEditingBytes() {
        var assembler = LineAssembler()
        let pieces =
            assembler.feed(Array("status\r\ncapx\u{7F}ture\rhelp\nlib\u{1B}[Arary".utf8)) + assembler.finish()
        XCTAssertEqual(pieces, [.line("status"), .line("capture"), .line("help"), .line("library")])
    }

    func testOverlongLineIsReportedOnceAndTheNextLineIsIntact() {
        var assembler = LineAssembler(maximumLength: 16)
        var pieces: [LineAssembler.Piece] = []
        for _ in 0..<100 { pieces += assembler.feed(Array(repeating: UInt8(ascii: "a"), count: 1000)) }
        pieces += assembler.feed(Array("\nstatus\n".utf8))
        XCTAssertEqual(pieces, [.overlong(length: 100_000), .line("status")])
    }

    func testCtrlCDropsTheLineAndRandomBytesNeverCrash() {
        var assembler = LineAssembler(maximumLength: 64)
        XCTAssertEqual(assembler.feed(Array("rm -rf\u{03}status\n".utf8)), [.line("status")])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let bytes = (0..<500).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for piece in assembler.feed(bytes) {
                if case .line(let text) = piece { XCTAssertLessThanOrEqual(text.count, 64) }
            }
        }
    }
}
