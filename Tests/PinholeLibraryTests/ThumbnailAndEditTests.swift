// Tests of cached, cancellable thumbnails and lossless rotate/crop edits.

import Foundation
import PinholeCore
import PinholeImaging
import PinholeLibraryCommandLine
import XCTest

@testable import PinholeLibrary

final class ThumbnailAndEditTests: LibraryTestCase {
    override class var opensLibrary: Bool { true }

    /// Red at the top centre and bottom centre of a decoded JPEG.
    private func redTopAndBottom(_ jpeg: [UInt8]) throws -> (Int, Int) {
        let image = try JPEGDecoder.decode(jpeg)
        let bytes = image.planes[0].bytes, stride = image.planes[0].stride
        let x = image.width / 2
        return (Int(bytes[x * 3]), Int(bytes[(image.height - 1) * stride + x * 3]))
    }

    func testThumbnailsFitOrFillUprightAndAreCached() throws {
        // Stored 64x48, red growing left to right; orientation 6 turns it to 48x64 with red growing downwards.
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata(orientation: .right))
        let fit = try library.thumbnail(of: asset, size: PixelSize(width: 32, height: 32), mode: .aspectFit)
        XCTAssertEqual(fit.size, PixelSize(width: 24, height: 32))
        XCTAssertFalse(fit.fromCache)
        XCTAssertEqual(try JPEGDecoder.header(fit.jpeg), PixelSize(width: 24, height: 32))
        let (top, bottom) = try redTopAndBottom(fit.jpeg)
        XCTAssertLessThan(top + 100, bottom, "orientation applied: red grows downwards")
        XCTAssertTrue(fit.file.string.hasPrefix(dir.path + "/cache/thumbnails/\(asset.id)/"))

        let again = try library.thumbnail(of: asset, size: PixelSize(width: 32, height: 32), mode: .aspectFit)
        XCTAssertTrue(again.fromCache)
        XCTAssertEqual(again.jpeg, fit.jpeg)

        let fill = try library.thumbnail(of: asset, size: PixelSize(width: 32, height: 32), mode: .aspectFill)
        XCTAssertEqual(fill.size, PixelSize(width: 32, height: 32))
        XCTAssertNotEqual(fill.file, fit.file)
        XCTAssertEqual(try library.clearThumbnailCache(), 2)
        XCTAssertFalse(
            try library.thumbnail(of: asset, size: PixelSize(width: 32, height: 32), mode: .aspectFit)
                .fromCache)
        XCTAssertTrue(
            try library.thumbnail(of: asset, size: PixelSize(width: 32, height: 32), mode: .aspectFit)
                .fromCache,
            "cached again after the cache was cleared")
        XCTAssertThrowsError(
            try library.thumbnail(of: asset, size: PixelSize(width: 0, height: 10), mode: .aspectFit))
        XCTAssertTrue(try library.fsck().isClean)
    }

    func testPreviewPixelsAreUprightByOrientationAndEdits() throws {
        // Stored 64x48, red growing left to right; orientation 6 (in the EXIF, as a camera
        // writes it) shows it 48x64, red growing downwards.
        let metadata = testMetadata(orientation: .right)
        let jpeg = try ExifWriter.embed(metadata, thumbnail: nil, into: TestJPEG.make())
        let asset = try library.add(jpeg: jpeg, metadata: metadata)
        let red = { (image: RawImage, x: Int, y: Int) in
            Int(image.planes[0].bytes[y * image.planes[0].stride + x * 3])
        }
        let upright = try library.previewPixels(of: asset, fitting: PixelSize(width: 32, height: 32))
        XCTAssertEqual(upright.format, .rgb888)
        XCTAssertEqual(
            PixelSize(width: upright.width, height: upright.height), PixelSize(width: 24, height: 32))
        XCTAssertLessThan(red(upright, 12, 0) + 100, red(upright, 12, 31), "red grows downwards")

        // A 90° edit on top of the orientation: red grows right to left.
        _ = try library.applyAdjustments(PinholeAdjustments(rotation: 90), to: asset.id)
        let edited = try library.previewPixels(
            of: XCTUnwrap(library.asset(id: asset.id)), fitting: PixelSize(width: 32, height: 32))
        XCTAssertEqual(
            PixelSize(width: edited.width, height: edited.height), PixelSize(width: 32, height: 24))
        XCTAssertLessThan(red(edited, 31, 12) + 100, red(edited, 0, 12), "the edit is shown")
    }

    func testCancelledRequestsThrowAndCacheNothing() async throws {
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let cancellation = Cancellation()
        cancellation.cancel()
        XCTAssertThrowsError(
            try library.thumbnail(
                of: asset, size: PixelSize(width: 16, height: 16), mode: .aspectFit,
                cancellation: cancellation)
        ) { error in
            XCTAssertEqual(error as? LibraryError, .cancelled)
        }
        let library = self.library!
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await library.thumbnail(
                of: asset, size: PixelSize(width: 16, height: 16), mode: .aspectFit)
        }
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { error in XCTAssertEqual(error as? LibraryError, .cancelled) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.join("cache/thumbnails/\(asset.id)")))
        let done = try await library.thumbnail(
            of: asset, size: PixelSize(width: 16, height: 16), mode: .aspectFill)
        XCTAssertEqual(done.size, PixelSize(width: 16, height: 16))
    }

    func testEditsRotateAndCropLosslesslyAdjustToneReopenAndRevert() throws {
        let original = TestJPEG.make()
        let asset = try library.add(jpeg: original, metadata: testMetadata())
        let before = try library.thumbnail(
            of: asset, size: PixelSize(width: 32, height: 32), mode: .aspectFit)
        XCTAssertEqual(before.size, PixelSize(width: 32, height: 24))

        let rotated = try library.applyAdjustments(PinholeAdjustments(rotation: 90), to: asset.id)
        XCTAssertEqual(rotated.renderSize, PixelSize(width: 48, height: 64))
        XCTAssertEqual(try library.adjustments(of: asset.id), PinholeAdjustments(rotation: 90))
        let edited = try XCTUnwrap(library.asset(id: asset.id))
        let after = try library.thumbnail(
            of: edited, size: PixelSize(width: 32, height: 32), mode: .aspectFit)
        XCTAssertEqual(after.size, PixelSize(width: 24, height: 32), "thumbnails show the edit")
        XCTAssertEqual(
            try library.thumbnail(
                of: edited, size: PixelSize(width: 32, height: 32), mode: .aspectFit,
                version: .original
            ).size, PixelSize(width: 32, height: 24))
        XCTAssertEqual(try library.originalData(of: edited), original)

        // Reopen from the command line: rotate further, then crop.
        let answer = try LibraryCommandLine.execute(
            ["edit", "rotate", asset.id, "--degrees", "90", "--json"], library: library)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        XCTAssertEqual(object["revision"] as? Int, 2)
        XCTAssertEqual(object["width"] as? Int, 64)
        XCTAssertEqual(try library.adjustments(of: asset.id)?.rotation, 180)
        let cropped = try LibraryCommandLine.execute(
            ["edit", "crop", asset.id, "--rect", "16,16,32,32"], library: library)
        XCTAssertTrue(cropped.hasSuffix("(32x32)"), cropped)

        // Tonal adjustments are re-rendered from the original (geometry first, losslessly).
        var brighter = try XCTUnwrap(library.adjustments(of: asset.id))
        brighter.exposure = 1
        let toned = try library.applyAdjustments(brighter, to: asset.id)
        XCTAssertEqual(toned.renderSize, PixelSize(width: 32, height: 32))
        let plain = try JPEGDecoder.decode(
            LosslessTransform.crop(
                LosslessTransform.rotate(original, degrees: 180),
                rect: PixelRect(x: 16, y: 16, width: 32, height: 32)))
        let lifted = try JPEGDecoder.decode(
            try XCTUnwrap(FileManager.default.contents(atPath: dir.join(toned.renderPath)))
                .map { $0 })
        let mean = { (image: RawImage) in
            image.planes[0].bytes.reduce(0) { $0 + Int($1) } / image.planes[0].bytes.count
        }
        XCTAssertGreaterThan(mean(lifted), mean(plain) + 20, "one stop brighter")
        XCTAssertThrowsError(try library.applyAdjustments(PinholeAdjustments(rotation: 45), to: asset.id))
        let adjusted = try LibraryCommandLine.execute(
            ["edit", "adjust", asset.id, "--contrast", "0.3", "--vignette", "0.5"],
            library: library)
        XCTAssertTrue(adjusted.hasPrefix("revision 5: "), adjusted)
        XCTAssertEqual(
            try library.adjustments(of: asset.id),
            PinholeAdjustments(
                rotation: 180, crop: PixelRect(x: 16, y: 16, width: 32, height: 32),
                exposure: 1, contrast: 0.3, vignette: 0.5))
        XCTAssertThrowsError(
            try LibraryCommandLine.execute(
                ["edit", "adjust", asset.id, "--exposure", "lots"], library: library))
        try library.revertEdit(of: asset.id)
        XCTAssertEqual(try library.adjustments(of: asset.id), PinholeAdjustments())
        XCTAssertEqual(
            try library.applyAdjustments(PinholeAdjustments(rotation: 270), to: asset.id).revision, 1,
            "editing again after a revert (its render directory was removed)")
        try library.revertEdit(of: asset.id)
        XCTAssertTrue(try library.fsck().isClean)
    }

    func testThumbnailCommandWritesAFile() throws {
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let outside = TemporaryDirectory("pinhole-thumbnail-out")  // never inside the library
        let out = outside.join("thumb.jpg")
        let text = try LibraryCommandLine.execute(
            [
                "thumbnail", String(asset.id.prefix(30)), "--size", "20x20", "--mode", "fill",
                "--out", out,
            ], library: library)
        XCTAssertEqual(text, "\(out) 20x20")
        XCTAssertEqual(TestJPEG.decodedSize(ofFile: out).map { [$0.0, $0.1] }, [20, 20])
        XCTAssertThrowsError(
            try LibraryCommandLine.execute(["thumbnail", asset.id, "--size", "big"], library: library))
    }
}
