// Encodes YUV 4:2:0, NV12, RGB and XRGB with libjpeg-turbo and checks the decoded pixels.

import PinholeCore
@testable import PinholeImaging
import XCTest

final class JPEGEncoderTests: XCTestCase {
    /// Odd on both sides, to exercise edge padding.
    static let sharedSource = TestImages.yuv420(width: 333, height: 251)
    var source: RawImage { Self.sharedSource }

    func testYUV420EncodeDecodesCloseToSource() throws {
        let jpeg = try JPEGEncoder(quality: 93, threads: 1).encode(source)
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual(Array(jpeg.suffix(2)), [0xFF, 0xD9])
        let decoded = try JPEGDecoder.decode(jpeg)
        XCTAssertEqual(decoded.width, 333)
        XCTAssertEqual(decoded.height, 251)
        XCTAssertLessThan(TestImages.meanDifference(decoded, TestImages.rgb(from: source)), 2.5)
    }

    func testNV12EncodesTheSameBytesAsItsPlanarTwin() throws {
        let encoder = JPEGEncoder(quality: 90, threads: 1)
        let planar = try encoder.encode(source)
        let semiPlanar = try encoder.encode(TestImages.nv12(from: source))
        let difference = TestImages.maxDifference(
            try JPEGDecoder.decode(planar), try JPEGDecoder.decode(semiPlanar))
        XCTAssertTrue(
            planar == semiPlanar,
            "NV12 and I420 JPEGs differ: \(planar.count) vs \(semiPlanar.count) bytes, max pixel difference \(difference)"
        )
    }

    func testRGBAndXRGBEncodeTheSamePicture() throws {
        let rgb = TestImages.rgb(from: source)
        let fromRGB = try JPEGDecoder.decode(JPEGEncoder(threads: 1).encode(rgb))
        let fromXRGB = try JPEGDecoder.decode(JPEGEncoder(threads: 1).encode(TestImages.xrgb(from: rgb)))
        XCTAssertLessThan(TestImages.meanDifference(fromRGB, rgb), 2.5)
        XCTAssertEqual(TestImages.maxDifference(fromRGB, fromXRGB), 0)
    }

    func testQualityChangesSize() throws {
        let low = try JPEGEncoder(quality: 20, threads: 1).encode(source)
        let high = try JPEGEncoder(quality: 98, threads: 1).encode(source)
        XCTAssertLessThan(low.count, high.count)
    }

    func testPlanesTooSmallAreRejected() {
        var broken = source
        broken.planes[1].bytes.removeLast(10)
        XCTAssertThrowsError(try JPEGEncoder().encode(broken)) { error in
            XCTAssertTrue("\(error)".contains("U plane has"), "\(error)")
        }
        broken = source
        broken.planes.removeLast()
        XCTAssertThrowsError(try JPEGEncoder().encode(broken)) { error in
            XCTAssertTrue("\(error)".contains("needs 3 planes"), "\(error)")
        }
    }
}
