// Replays fuzz/console's corpus and seeds (serial-line noise) through the input decoder, line editor and line assembler.

import Foundation
import XCTest

@testable import PinholeConsole

final class ConsoleInputCorpusTests: XCTestCase {
    /// Every input libFuzzer kept (fuzz/console/run), read as the target reads it (split in two
    /// reads at a point the input chooses): the decoder ends idle, the editor stays inside its
    /// limits, and no assembled line is longer than the maximum.
    func testTheCorpusKeepsEveryLimit() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        var inputs: [(name: String, bytes: [UInt8])] = []
        for folder in ["fuzz/console/corpus", "fuzz/console/seeds"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                inputs.append((name, [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))))
            }
        }
        XCTAssertGreaterThan(inputs.count, 500, "the corpus is checked in")
        for (name, bytes) in inputs {
            let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
            var decoder = TerminalDecoder()
            var editor = LineEditor(maximumLength: 40, historyLimit: 5)
            let keys = decoder.feed(bytes[..<split]) + decoder.feed(bytes[split...]) + decoder.flush()
            XCTAssertFalse(decoder.isPending, name)
            for key in keys {
                _ = editor.handle(key)
                let (text, column) = editor.visible(width: 10)
                guard editor.characters.count <= 40, (0...editor.characters.count).contains(editor.cursor),
                    text.count <= 10, (0...10).contains(column)
                else { return XCTFail("\(name): the editor left its limits") }
            }
            XCTAssertLessThanOrEqual(editor.history.count, 5, name)
            var assembler = LineAssembler(maximumLength: 32)
            let pieces =
                assembler.feed(bytes[..<split]) + assembler.feed(bytes[split...]) + assembler.finish()
            for case .line(let line) in pieces { XCTAssertLessThanOrEqual(line.count, 32, name) }
        }
    }
}
