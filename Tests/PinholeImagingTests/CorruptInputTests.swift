// Corrupt and truncated JPEGs and malformed EXIF give clear errors, never a crash.

import PinholeCore
@testable import PinholeImaging
import XCTest

final class CorruptInputTests: XCTestCase {
    lazy var photo: [UInt8] = try! PhotoEncoder(threads: 1).encode(
        image: TestImages.yuv420(width: 160, height: 120),
        metadata: ExifRoundTripTests.fullMetadata())

    private func assertThrows(
        _ body: @autoclosure () throws -> Any, contains text: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertTrue(
                "\(error)".contains(text), "expected \"\(text)\" in: \(error)", file: file, line: line)
        }
    }

    func testNotAJPEG() {
        for bytes: [UInt8] in [[], [0xFF], Array("hello world".utf8), [0x89, 0x50, 0x4E, 0x47]] {
            assertThrows(try ExifReader.read(jpeg: bytes), contains: "not a JPEG (no SOI marker)")
            assertThrows(try JPEGDecoder.decode(bytes), contains: "not a JPEG (no SOI marker)")
            assertThrows(try JPEGDecoder.header(bytes), contains: "not a JPEG (no SOI marker)")
        }
    }

    func testTruncatedHeaderIsReportedAsTruncated() {
        for length in [3, 4, 5, 20, 200, 900] {
            let cut = Array(photo.prefix(length))
            assertThrows(try ExifReader.read(jpeg: cut), contains: "truncated JPEG")
            assertThrows(try JPEGDecoder.decode(cut), contains: "truncated JPEG")
        }
    }

    func testTruncatedImageDataIsReportedAsTruncated() throws {
        let cut = Array(photo.prefix(photo.count - 400))
        assertThrows(try JPEGDecoder.decode(cut), contains: "truncated JPEG")
        // The header is intact, so metadata can still be read.
        XCTAssertEqual(try ExifReader.read(jpeg: cut).make, "Raspberry Pi")
    }

    func testBadSegmentLength() {
        var bytes = photo
        bytes[4] = 0; bytes[5] = 1  // APP1 length 1
        assertThrows(try ExifReader.read(jpeg: bytes), contains: "has length 1")
    }

    func testMalformedExifHeaderIsRejected() throws {
        let layout = try JPEGLayout(photo)
        let app1 = try XCTUnwrap(layout.exifSegment(in: photo))
        var badOrder = photo
        badOrder[app1.payload.lowerBound + 6] = 0x58  // "XI" instead of "II"
        assertThrows(try ExifReader.read(jpeg: badOrder), contains: "byte-order mark")
        var badOffset = photo
        badOffset[app1.payload.lowerBound + 13] = 0x7F  // IFD0 offset far past the block
        assertThrows(try ExifReader.read(jpeg: badOffset), contains: "IFD0 offset")
    }

    func testScrambledExifNeverCrashes() throws {
        let layout = try JPEGLayout(photo)
        let app1 = try XCTUnwrap(layout.exifSegment(in: photo))
        var generator = SplitMix(seed: 42)
        for _ in 0..<300 {
            var bytes = photo
            for _ in 0..<8 {
                let i = app1.payload.lowerBound + 14 + Int(generator.next() % UInt64(app1.payload.count - 14))
                bytes[i] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = try? ExifReader.read(jpeg: bytes)
            _ = try? ExifReader.thumbnail(jpeg: bytes)
        }
    }

    func testScrambledImageDataNeverCrashes() throws {
        let jpeg = try JPEGEncoder(threads: 2).encode(TestImages.yuv420(width: 64, height: 64))
        let scan = try JPEGLayout(jpeg).scanStart
        var generator = SplitMix(seed: 7)
        for _ in 0..<100 {
            var bytes = jpeg
            for _ in 0..<4 {
                let i = Int(generator.next() % UInt64(bytes.count))
                bytes[i] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = try? JPEGDecoder.decode(bytes)
            _ = try? Thumbnailer.render(
                jpeg: bytes, size: PixelSize(width: 16, height: 16), mode: .aspectFill,
                orientation: .left)
        }
        XCTAssertGreaterThan(scan, 0)
    }

    func testHugeDeclaredSizeIsRefusedBeforeAllocating() throws {
        var bytes = try JPEGEncoder(threads: 1).encode(TestImages.yuv420(width: 64, height: 64))
        let sof = try JPEGLayout(bytes).sofPayload.lowerBound
        bytes[sof + 1] = 0xFF; bytes[sof + 2] = 0xFF; bytes[sof + 3] = 0xFF; bytes[sof + 4] = 0xFF
        assertThrows(try JPEGDecoder.decode(bytes), contains: "over the limit")
    }
}

/// A tiny deterministic random generator for the scramble tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class LenientInputTests: XCTestCase {
    func testExtraneousBytesBeforeAMarkerAreSkippedLikeLibjpeg() throws {
        let jpeg = try JPEGEncoder(threads: 1).encode(TestImages.yuv420(width: 32, height: 32))
        // Insert two garbage bytes after the APP0 segment (SOI 2 bytes + APP0 18 bytes).
        var padded = jpeg
        padded.insert(contentsOf: [0x00, 0x42], at: 20)
        XCTAssertEqual(try JPEGDecoder.header(padded), PixelSize(width: 32, height: 32))
        XCTAssertEqual(try JPEGDecoder.decode(padded).width, 32)
    }
}
