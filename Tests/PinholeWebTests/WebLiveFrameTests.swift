// The live view's frame size bound ([web] live_size): larger viewfinder images are scaled down.

import PinholeConfiguration
import PinholeCore
import XCTest

@testable import PinholeWeb

final class WebLiveFrameTests: XCTestCase {
    /// An RGB image, red on its left half and blue on its right.
    func halves(width: Int, height: Int) -> RawImage {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width { bytes[(y * width + x) * 3 + (x < width / 2 ? 0 : 2)] = 255 }
        }
        return RawImage(
            format: .rgb888, width: width, height: height,
            planes: [ImagePlane(bytes: bytes, stride: width * 3)])
    }

    func testAViewfinderImageLargerThanTheBoundIsScaledDownWithItsAspectAndPicture() {
        let wide = LiveFrame.bounded(halves(width: 1280, height: 960), longestSide: 640)
        XCTAssertEqual([wide.width, wide.height], [640, 480])
        let row = wide.planes[0].bytes
        XCTAssertEqual(Array(row[0..<3]), [255, 0, 0], "the left stays red")
        XCTAssertEqual(Array(row[(639 * 3)..<(640 * 3)]), [0, 0, 255], "the right stays blue")
        let tall = LiveFrame.bounded(halves(width: 960, height: 1280), longestSide: 640)
        XCTAssertEqual([tall.width, tall.height], [480, 640])
        let hd = LiveFrame.bounded(halves(width: 1920, height: 1080), longestSide: 800)
        XCTAssertEqual([hd.width, hd.height], [800, 450])
    }

    func testAnImageWithinTheBoundIsSentAsItIs() {
        let small = halves(width: 640, height: 480)
        let same = LiveFrame.bounded(small, longestSide: 640)
        XCTAssertEqual([same.width, same.height], [640, 480])
        XCTAssertEqual(same.planes[0].bytes, small.planes[0].bytes)
    }

    func testLiveSizeIsReadWithItsBoundsAndDefault() throws {
        XCTAssertEqual(try Configuration.parse("", file: "p.toml").web.liveSize, 640)
        let set = try Configuration.parse(
            "[web]\nlisten = \"127.0.0.1:8080\"\nlive_size = 320\n", file: "p.toml")
        XCTAssertEqual(set.web.liveSize, 320)
        for bad in ["100", "4000", "\"big\""] {
            XCTAssertThrowsError(
                try Configuration.parse(
                    "[web]\nlisten = \"127.0.0.1:8080\"\nlive_size = \(bad)\n", file: "p.toml")
            ) {
                XCTAssertTrue("\($0)".contains("p.toml:3"), "\($0)")
                XCTAssertTrue("\($0)".contains("live_size"), "\($0)")
            }
        }
    }
}
