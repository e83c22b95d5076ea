// Exposure, contrast and vignette adjustments, and rendering an edit from a JPEG.

import Foundation
import PinholeCore
@testable import PinholeImaging
import XCTest

final class AdjustmentTests: XCTestCase {
    func grey(_ value: UInt8, width: Int = 64, height: Int = 48) -> RawImage {
        RawImage(
            format: .rgb888, width: width, height: height,
            planes: [
                ImagePlane(bytes: [UInt8](repeating: value, count: width * height * 3), stride: width * 3)
            ])
    }

    func pixel(_ image: RawImage, _ x: Int, _ y: Int) -> UInt8 {
        image.planes[0].bytes[(y * image.width + x) * 3]
    }

    func testOneStopDoublesLinearLight() {
        // sRGB 118 is 18 % grey; twice that (36 %) is sRGB 161.
        let brighter = EditRenderer.apply(Adjustments(exposure: 1), to: grey(118))
        XCTAssertEqual(Int(pixel(brighter, 10, 10)), 161, accuracy: 1)
        let darker = EditRenderer.apply(Adjustments(exposure: -1), to: grey(118))
        XCTAssertEqual(Int(pixel(darker, 10, 10)), 84, accuracy: 1)
    }

    func testContrastSpreadsAroundMidGrey() {
        let curve = EditRenderer.toneCurve(Adjustments(contrast: 0.5))
        XCTAssertLessThan(curve[64], 64)
        XCTAssertGreaterThan(curve[192], 192)
        XCTAssertEqual(Int(curve[128]), 128, accuracy: 1)
        XCTAssertEqual(EditRenderer.toneCurve(Adjustments()), (0..<256).map { UInt8($0) })
    }

    func testVignetteDarkensCornersOnly() {
        let image = EditRenderer.apply(Adjustments(vignette: 1), to: grey(200))
        XCTAssertEqual(pixel(image, 32, 24), 200)
        XCTAssertLessThan(pixel(image, 0, 0), 60)
        XCTAssertLessThan(pixel(image, 63, 47), 60)
        XCTAssertLessThan(pixel(image, 0, 24), 200)
    }

    func testRenderAppliesOrientationSizeAndAdjustments() throws {
        let jpeg = try JPEGEncoder(threads: 1).encode(grey(118, width: 200, height: 100))
        let edited = try EditRenderer.render(
            jpeg: jpeg, adjustments: Adjustments(exposure: 1), orientation: .left,
            maxSize: PixelSize(width: 50, height: 50))
        let decoded = try JPEGDecoder.decode(edited)
        XCTAssertEqual(
            PixelSize(width: decoded.width, height: decoded.height), PixelSize(width: 25, height: 50))
        XCTAssertEqual(Int(pixel(decoded, 12, 25)), 161, accuracy: 3)
    }

    func testRecipeIsCodableAndClamped() throws {
        let recipe = Adjustments(exposure: 9, contrast: -3, vignette: 0.25)
        XCTAssertEqual(recipe.exposure, 4)
        XCTAssertEqual(recipe.contrast, -1)
        let data = try JSONEncoder().encode(recipe)
        XCTAssertEqual(try JSONDecoder().decode(Adjustments.self, from: data), recipe)
    }
}
