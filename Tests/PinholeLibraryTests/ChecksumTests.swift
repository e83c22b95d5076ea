// Tests of the CRC-32 checksum against known values.

import PinholeTestTools
import XCTest

@testable import PinholeLibrary

final class ChecksumTests: LibraryTestCase {
    func testKnownValues() {
        XCTAssertEqual(Checksum.string(for: []), "crc32:00000000")
        XCTAssertEqual(Checksum.string(for: Array("123456789".utf8)), "crc32:cbf43926")
        XCTAssertEqual(
            Checksum.string(for: Array("The quick brown fox jumps over the lazy dog".utf8)), "crc32:414fa339")
    }

    func testAgreesWithZlib() throws {
        let jpeg = TestJPEG.make(width: 61, height: 37, seed: 3)  // an odd length exercises the tail loop
        let path = dir.join("x.jpg")
        writeFile(path, contents: Data(jpeg))
        let python = try ExternalTool.locate("/usr/bin/python3")
        let script = "import sys, zlib; print('%08x' % zlib.crc32(open(sys.argv[1], 'rb').read()))"
        let output = String(decoding: TestJPEG.run(python, ["-c", script, path], input: []), as: UTF8.self)
        XCTAssertEqual("crc32:" + output.prefix(8), Checksum.string(for: jpeg))
    }
}
