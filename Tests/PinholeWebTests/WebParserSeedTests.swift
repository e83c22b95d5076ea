// The web's readers of request text on hostile input: fuzz/web/seeds replayed, and the Range header read strictly.

import Foundation
import XCTest

@testable import PinholeWeb

final class WebParserSeedTests: XCTestCase {
    /// fuzz/web/seeds, as the libFuzzer target (fuzz/web/run) reads them: nothing traps, a range
    /// read lies inside the file, a form holds no more fields than pairs.
    func testTheSeedsReadWithoutTrapping() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let directory = root.appendingPathComponent("fuzz/web/seeds")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertGreaterThan(names.count, 25, "the seeds are checked in")
        var ranges = 0
        for name in names {
            let text = String(
                decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
            if let form = WebForm(text) {
                XCTAssertLessThanOrEqual(form.fields.count, text.split(separator: "&").count, name)
            }
            for size in [0, 1, 4411, Int.max] {
                if case .part(let bytes) = ByteRangeRequest(header: text, size: size) {
                    XCTAssertTrue(
                        bytes.lowerBound >= 0 && bytes.upperBound < size, "\(name): \(bytes) of \(size)")
                    ranges += 1
                }
            }
        }
        XCTAssertGreaterThan(ranges, 10, "some seeds are ranges read")
    }

    func testARangeIsDigitsOnlyAndStaysInsideTheFile() {
        XCTAssertEqual(ByteRangeRequest(header: "bytes=0-99", size: 4411), .part(0...99))
        XCTAssertEqual(ByteRangeRequest(header: "bytes=4000-", size: 4411), .part(4000...4410))
        XCTAssertEqual(ByteRangeRequest(header: "bytes=-500", size: 4411), .part(3911...4410))
        XCTAssertEqual(ByteRangeRequest(header: "bytes=-99999", size: 4411), .part(0...4410))
        XCTAssertEqual(ByteRangeRequest(header: "bytes=0-99999", size: 4411), .part(0...4410))
        XCTAssertEqual(ByteRangeRequest(header: "bytes=4411-", size: 4411), .unsatisfiable)
        XCTAssertEqual(ByteRangeRequest(header: "bytes=-0", size: 4411), .unsatisfiable)
        XCTAssertEqual(ByteRangeRequest(header: "bytes=0-", size: 0), .unsatisfiable)
        // Malformed: ignored (the whole file), as RFC 9110 allows.
        for header in [
            "bytes=5-3", "bytes=0-1,5-9", "bytes=", "bytes=-", "items=0-10", "bytes=9999999999999999999-1",
            "bytes=+1-2", "bytes=-+5", "bytes= 1-2", "bytes=1-2 ", "bytes=\u{FF11}-2",
        ] {
            XCTAssertEqual(ByteRangeRequest(header: header, size: 4411), .whole, header)
        }
        XCTAssertEqual(ByteRangeRequest(header: nil, size: 4411), .whole)
    }
}
