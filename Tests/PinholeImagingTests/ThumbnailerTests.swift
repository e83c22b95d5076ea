// Thumbnail sizes for both content modes, decode-time scaling and the embedded EXIF thumbnail.

import PinholeCore
@testable import PinholeImaging
import XCTest

final class ThumbnailerTests: XCTestCase {
    func testAspectFitAndFillSizes() throws {
        let jpeg = try JPEGEncoder(threads: 1).encode(TestImages.yuv420(width: 400, height: 300))
        let fit = try JPEGDecoder.header(
            Thumbnailer.render(
                jpeg: jpeg, size: PixelSize(width: 100, height: 100),
                mode: .aspectFit, orientation: .up))
        XCTAssertEqual(fit, PixelSize(width: 100, height: 75))
        let fill = try JPEGDecoder.header(
            Thumbnailer.render(
                jpeg: jpeg, size: PixelSize(width: 100, height: 100),
                mode: .aspectFill, orientation: .up))
        XCTAssertEqual(fill, PixelSize(width: 100, height: 100))
        let rotated = try JPEGDecoder.header(
            Thumbnailer.render(
                jpeg: jpeg, size: PixelSize(width: 100, height: 100),
                mode: .aspectFit, orientation: .right))
        XCTAssertEqual(rotated, PixelSize(width: 75, height: 100))
    }

    func testThumbnailLooksLikeTheImage() throws {
        let source = TestImages.yuv420(width: 400, height: 300)
        let jpeg = try JPEGEncoder(threads: 1).encode(source)
        let thumb = try Thumbnailer.renderPixels(
            jpeg: jpeg, size: PixelSize(width: 80, height: 60), mode: .aspectFill,
            orientation: .up)
        let reference = Resampler.render(source, canvas: PixelSize(width: 80, height: 60))
        XCTAssertLessThan(TestImages.meanDifference(thumb, reference), 4)
    }

    func testDecodeTimeScalingPicksTheSmallestCoveringScale() {
        XCTAssertEqual(
            JPEGDecoder.chooseScale(width: 4056, height: 3040, target: PixelSize(width: 160, height: 120)),
            PixelSize(width: 507, height: 380))
        XCTAssertEqual(
            JPEGDecoder.chooseScale(width: 4056, height: 3040, target: PixelSize(width: 1000, height: 750)),
            PixelSize(width: 1014, height: 760))
        XCTAssertEqual(
            JPEGDecoder.chooseScale(width: 400, height: 300, target: PixelSize(width: 500, height: 500)),
            PixelSize(width: 400, height: 300))
    }

    func testScaledDecodeHasTheScaledSize() throws {
        let jpeg = try JPEGEncoder(threads: 1).encode(TestImages.yuv420(width: 400, height: 300))
        let image = try JPEGDecoder.decode(jpeg, fittingIn: PixelSize(width: 90, height: 60))
        XCTAssertEqual(PixelSize(width: image.width, height: image.height), PixelSize(width: 100, height: 75))
    }

    func testEmbeddedThumbnailIsUsedForSmallTargets() throws {
        // A photo whose EXIF thumbnail is deliberately different (black) from its main image:
        // a small render must come from the thumbnail, a large one from the image.
        let image = TestImages.yuv420(width: 640, height: 480)
        let main = try JPEGEncoder(threads: 1).encode(image)
        let black = RawImage.yuv420(width: 160, height: 120) { plane, _, _, buffer in
            for i in buffer.indices { buffer[i] = plane == 0 ? 0 : 128 }
        }
        let jpeg = try ExifWriter.embed(
            PhotoMetadata(pixelWidth: 640, pixelHeight: 480),
            thumbnail: JPEGEncoder(threads: 1).encode(black), into: main)
        let small = try Thumbnailer.renderPixels(
            jpeg: jpeg, size: PixelSize(width: 80, height: 60), mode: .aspectFit,
            orientation: .up)
        XCTAssertLessThan(small.planes[0].bytes.map(Int.init).max()!, 20)
        let large = try Thumbnailer.renderPixels(
            jpeg: jpeg, size: PixelSize(width: 320, height: 240), mode: .aspectFit,
            orientation: .up)
        XCTAssertGreaterThan(large.planes[0].bytes.map(Int.init).max()!, 150)
    }
}
