// The eight EXIF orientations rendered correctly: marked pixels end where the EXIF spec says.

import PinholeCore
@testable import PinholeImaging
import XCTest

final class OrientationTests: XCTestCase {
    /// A 4×2 RGB image: every pixel distinct; A = top-left, B = top-right, C = bottom-left.
    let stored: RawImage = {
        var bytes: [UInt8] = []
        for i in 0..<8 { bytes += [UInt8(10 + i * 30), UInt8(i), 0] }
        return RawImage(format: .rgb888, width: 4, height: 2, planes: [ImagePlane(bytes: bytes, stride: 12)])
    }()
    let a: UInt8 = 10, b: UInt8 = 100, c: UInt8 = 130

    /// Where A, B and C must appear, straight from the EXIF 2.32 wording ("the 0th row is the
    /// visual right-hand side, the 0th column is the visual top", …), for display size w'×h'.
    func expected(_ o: Orientation, _ w: Int, _ h: Int) -> [(UInt8, Int, Int)] {
        switch o {
        case .up: return [(a, 0, 0), (b, w - 1, 0), (c, 0, h - 1)]
        case .upMirrored: return [(a, w - 1, 0), (b, 0, 0), (c, w - 1, h - 1)]
        case .down: return [(a, w - 1, h - 1), (b, 0, h - 1), (c, w - 1, 0)]
        case .downMirrored: return [(a, 0, h - 1), (b, w - 1, h - 1), (c, 0, 0)]
        case .leftMirrored: return [(a, 0, 0), (b, 0, h - 1), (c, w - 1, 0)]
        case .right: return [(a, w - 1, 0), (b, w - 1, h - 1), (c, 0, 0)]
        case .rightMirrored: return [(a, w - 1, h - 1), (b, w - 1, 0), (c, 0, h - 1)]
        case .left: return [(a, 0, h - 1), (b, 0, 0), (c, w - 1, h - 1)]
        }
    }

    func testAllEightOrientationsPlacePixelsPerTheSpec() {
        for o in Orientation.allCases {
            let shown = OrientationTransform.apply(o, to: stored)
            let (w, h) = o.swapsDimensions ? (2, 4) : (4, 2)
            XCTAssertEqual(shown.width, w, "\(o)")
            XCTAssertEqual(shown.height, h, "\(o)")
            for (value, x, y) in expected(o, w, h) {
                XCTAssertEqual(
                    shown.planes[0].bytes[(y * w + x) * 3], value,
                    "\(o): pixel \(value) should be at (\(x), \(y))")
            }
            // Nothing lost: same multiset of pixels.
            XCTAssertEqual(shown.planes[0].bytes.sorted(), stored.planes[0].bytes.sorted(), "\(o)")
        }
    }

    func testMountRotationMapsToOrientation() {
        XCTAssertEqual(Orientation(mountRotation: 90), .right)
        XCTAssertEqual(Orientation(mountRotation: -90), .left)
        XCTAssertEqual(Orientation(mountRotation: 180), .down)
    }

    /// A 128×64 JPEG of four coloured quadrants: red TL, green TR, blue BL, white BR.
    func quadrantJPEG() throws -> [UInt8] {
        let w = 128, h = 64
        var bytes = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let colour: [UInt8] =
                    switch (x < w / 2, y < h / 2) {
                    case (true, true): [255, 0, 0]
                    case (false, true): [0, 255, 0]
                    case (true, false): [0, 0, 255]
                    case (false, false): [255, 255, 255]
                    }
                bytes.replaceSubrange((y * w + x) * 3..<(y * w + x) * 3 + 3, with: colour)
            }
        }
        return try JPEGEncoder(quality: 95, threads: 1).encode(
            RawImage(format: .rgb888, width: w, height: h, planes: [ImagePlane(bytes: bytes, stride: w * 3)]))
    }

    func testThumbnailsAreRenderedUpright() throws {
        let jpeg = try quadrantJPEG()
        for o in Orientation.allCases {
            let thumb = try JPEGDecoder.decode(
                Thumbnailer.render(
                    jpeg: jpeg, size: PixelSize(width: 64, height: 64),
                    mode: .aspectFit, orientation: o))
            let (w, h) = o.swapsDimensions ? (32, 64) : (64, 32)
            XCTAssertEqual(thumb.width, w, "\(o)")
            XCTAssertEqual(thumb.height, h, "\(o)")
            // Red was stored top-left; it must sit where A goes. Sample a quarter in from the corner.
            let (_, ax, ay) = expected(o, 2, 2)[0]
            let x = ax == 0 ? w / 4 : 3 * w / 4, y = ay == 0 ? h / 4 : 3 * h / 4
            let i = (y * w + x) * 3
            let pixel = Array(thumb.planes[0].bytes[i..<i + 3])
            XCTAssertGreaterThan(pixel[0], 200, "\(o): expected red at (\(x), \(y)), got \(pixel)")
            XCTAssertLessThan(pixel[1], 60, "\(o): expected red at (\(x), \(y)), got \(pixel)")
        }
    }
}
