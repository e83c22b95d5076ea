// Tests of the TOML reader: values, tables, arrays of tables, and errors with lines.

import Foundation
import SystemPackage
import XCTest
@testable import PinholeCore

final class TOMLDocumentTests: XCTestCase {
    func testParsesTablesValuesAndArraysOfTables() throws {
        let text = """
            # comment
            title = "Pinhole"   # trailing comment
            [board]
            name = "Pi 5"
            count = 1_000
            ratio = 1.5
            on = true
            list = [1, 2,
                    3]
            inline = { line = "GPIO17", active_low = false }

            [buttons.shutter]
            line = "GPIO17"

            [[cameras]]
            match = "imx477"
            [[cameras]]
            match = "ov5647"
            """
        let root = try TOMLDocument.parse(text, file: "t.toml")
        XCTAssertEqual(root["title"], .string("Pinhole"))
        guard case .table(let board)? = root["board"] else { return XCTFail("no board table") }
        XCTAssertEqual(board["count"], .integer(1000))
        XCTAssertEqual(board["ratio"], .float(1.5))
        XCTAssertEqual(board["on"], .bool(true))
        XCTAssertEqual(board["list"], .array([.integer(1), .integer(2), .integer(3)]))
        XCTAssertEqual(board.line(of: "ratio"), 6)
        guard case .table(let inline)? = board["inline"] else { return XCTFail("no inline table") }
        XCTAssertEqual(inline["active_low"], .bool(false))
        guard case .table(let buttons)? = root["buttons"], case .table(let shutter)? = buttons["shutter"]
        else {
            return XCTFail("no dotted table")
        }
        XCTAssertEqual(shutter["line"], .string("GPIO17"))
        guard case .array(let cameras)? = root["cameras"] else { return XCTFail("no array of tables") }
        XCTAssertEqual(cameras.count, 2)
        guard case .table(let second) = cameras[1] else { return XCTFail("not a table") }
        XCTAssertEqual(second["match"], .string("ov5647"))
    }

    func testErrorsNameFileAndLine() {
        let cases: [(String, Int, String)] = [
            ("a = 1\nb = \"open\n", 2, "not closed"),
            ("a = 1\na = 2\n", 2, "set twice"),
            ("[x]\n[x]\n", 2, "defined twice"),
            ("\n\nkey value\n", 3, "expected '='"),
            ("a = bare\n", 1, "not a value"),
            ("a = 1 b = 2\n", 1, "one key = value per line"),
        ]
        for (text, line, fragment) in cases {
            XCTAssertThrowsError(try TOMLDocument.parse(text, file: "bad.toml"), text) { error in
                guard let error = error as? ConfigurationError else { return XCTFail("wrong error \(error)") }
                XCTAssertEqual(error.file, "bad.toml")
                XCTAssertEqual(error.line, line, text)
                XCTAssertTrue(error.reason.contains(fragment), "\(error.reason) lacks \(fragment)")
            }
        }
    }

    /// Deep nesting is an error naming the line, never a stack overflow; 32 levels parse.
    func testNestingAndSizeAreLimited() throws {
        let deep = "a = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        for text in [
            deep,
            "a = " + String(repeating: "{b = ", count: 50_000) + "1" + String(repeating: "}", count: 50_000),
            Array(repeating: "k", count: 20_000).joined(separator: ".") + " = 1",
            "[" + Array(repeating: "t", count: 20_000).joined(separator: ".") + "]",
        ] {
            XCTAssertThrowsError(try TOMLDocument.parse(text, file: "deep.toml")) { error in
                let reason = (error as? ConfigurationError)?.reason ?? "\(error)"
                XCTAssertTrue(reason.contains("more than 32"), reason)
                XCTAssertEqual((error as? ConfigurationError)?.line, 1)
            }
        }
        let limit = "a = " + String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        XCTAssertNotNil(try TOMLDocument.parse(limit, file: "ok.toml")["a"])
        let huge = "# " + String(repeating: "x", count: TOMLDocument.maximumSize) + "\n"
        XCTAssertThrowsError(try TOMLDocument.parse(huge, file: "huge.toml")) { error in
            XCTAssertTrue("\(error)".contains("larger than 1 MB"), "\(error)")
        }
    }

    /// fuzz/toml/corpus: every file parses or fails with a ConfigurationError (no trap).
    func testTheFuzzCorpusParsesOrFailsCleanly() throws {
        let corpus = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/toml/corpus")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for name in files {
            // As the fuzzer (fuzz/toml) and the configuration reader take bytes: invalid UTF-8 replaced.
            let bytes = try Data(contentsOf: corpus.appendingPathComponent(name))
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try TOMLDocument.parse(text, file: FilePath(name))
            } catch let error as ConfigurationError {
                XCTAssertEqual(error.file, FilePath(name))
            }
        }
    }
}
