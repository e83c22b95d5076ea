// Lossless rotate, flip and crop: pixels match the decoded-and-turned original, EXIF follows.

import PinholeCore
@testable import PinholeImaging
import XCTest

final class LosslessTransformTests: XCTestCase {
    /// A 64×48 photo (whole MCUs) with a gradient and a bright square, stored with `orientation`.
    func photo(_ orientation: Orientation) throws -> [UInt8] {
        var metadata = PhotoMetadata(pixelWidth: 64, pixelHeight: 48, orientation: orientation)
        metadata.make = "Pinhole"
        metadata.iso = 800
        return try PhotoEncoder(quality: 95, threads: 1).encode(
            image: TestImages.yuv420(width: 64, height: 48),
            metadata: metadata)
    }

    func testComposeMatchesTheGroupTable() {
        XCTAssertEqual(LosslessTransform.compose([.right, .right]), .down)
        XCTAssertEqual(LosslessTransform.compose([.right, .left]), .up)
        XCTAssertEqual(LosslessTransform.compose([.upMirrored, .upMirrored]), .up)
        XCTAssertEqual(LosslessTransform.compose([.down, .upMirrored]), .downMirrored)
        XCTAssertEqual(LosslessTransform.compose([.right, .upMirrored]), .leftMirrored)
    }

    func testUprightBakesEveryOrientationIntoPixels() throws {
        for orientation in Orientation.allCases {
            let jpeg = try photo(orientation)
            let expected = OrientationTransform.apply(orientation, to: try JPEGDecoder.decode(jpeg))
            let upright = try LosslessTransform.upright(jpeg)
            let decoded = try JPEGDecoder.decode(upright)
            XCTAssertEqual(decoded.width, expected.width, "\(orientation)")
            XCTAssertLessThan(TestImages.meanDifference(decoded, expected), 1.5, "\(orientation)")
            let metadata = try ExifReader.read(jpeg: upright)
            XCTAssertEqual(metadata.orientation, .up)
            XCTAssertEqual(metadata.make, "Pinhole")
            XCTAssertEqual(metadata.iso, 800)
            XCTAssertEqual(metadata.pixelWidth, decoded.width)
            let thumbnail = try XCTUnwrap(try ExifReader.thumbnail(jpeg: upright))
            let thumbSize = try JPEGDecoder.header(thumbnail)
            XCTAssertEqual(thumbSize, PixelSize(width: 160, height: 120))
        }
    }

    func testRotateTurnsTheDisplayedImageClockwise() throws {
        let jpeg = try photo(.right)
        let displayed = OrientationTransform.apply(.right, to: try JPEGDecoder.decode(jpeg))
        let rotated = try JPEGDecoder.decode(LosslessTransform.rotate(jpeg, degrees: 90))
        let expected = OrientationTransform.apply(.right, to: displayed)
        XCTAssertEqual(rotated.width, 64)
        XCTAssertEqual(rotated.height, 48)
        XCTAssertLessThan(TestImages.meanDifference(rotated, expected), 1.5)
        XCTAssertThrowsError(try LosslessTransform.rotate(jpeg, degrees: 45)) { error in
            XCTAssertTrue("\(error)".contains("multiple of 90"), "\(error)")
        }
    }

    func testFlipMirrorsTheDisplayedImage() throws {
        let jpeg = try photo(.up)
        let flipped = try JPEGDecoder.decode(LosslessTransform.flipHorizontally(jpeg))
        let expected = OrientationTransform.apply(.upMirrored, to: try JPEGDecoder.decode(jpeg))
        XCTAssertLessThan(TestImages.meanDifference(flipped, expected), 1.5)
    }

    func testCropKeepsTheAlignedRegion() throws {
        let jpeg = try photo(.up)
        let rect = PixelRect(x: 20, y: 18, width: 30, height: 20)
        let aligned = try LosslessTransform.alignedCrop(
            rect, mcu: (16, 16), bounds: PixelSize(width: 64, height: 48))
        XCTAssertEqual(aligned, PixelRect(x: 16, y: 16, width: 34, height: 22))
        let cropped = try JPEGDecoder.decode(LosslessTransform.crop(jpeg, rect: rect))
        XCTAssertEqual(cropped.width, 34)
        XCTAssertEqual(cropped.height, 22)
        let full = try JPEGDecoder.decode(jpeg)
        let expected = Resampler.render(full, source: aligned, canvas: PixelSize(width: 34, height: 22))
        XCTAssertLessThan(TestImages.meanDifference(cropped, expected), 1.5)
        XCTAssertThrowsError(
            try LosslessTransform.crop(jpeg, rect: PixelRect(x: 60, y: 0, width: 10, height: 10))
        ) { error in
            XCTAssertTrue("\(error)".contains("outside"), "\(error)")
        }
    }
}
