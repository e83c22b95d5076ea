// Writes every metadata field with PhotoEncoder and reads it back with ExifReader.

import PinholeCore
@testable import PinholeImaging
import XCTest

final class ExifRoundTripTests: XCTestCase {
    static func fullMetadata() -> PhotoMetadata {
        var m = PhotoMetadata(pixelWidth: 0, pixelHeight: 0, orientation: .right)
        m.make = "Raspberry Pi"
        m.model = "Camera Module 3"
        m.software = "Pinhole 0.1"
        m.captureTime = WallTime(
            secondsSince1970: 1_795_252_888, nanoseconds: 120_000_000, utcOffsetSeconds: 3600)
        m.exposureTime = 1.0 / 120
        m.iso = 400
        m.fNumber = 1.8
        m.focalLength = 4.74
        m.exposureBias = -2.0 / 3
        m.manualExposure = true
        m.metering = "spot"
        m.flashFired = true
        m.flashMode = .auto
        m.manualWhiteBalance = false
        m.lensPosition = 2.5
        m.lensModel = "IMX708 wide"
        m.serialNumber = "10000000abcdef12"
        m.gps = GPSFix(latitude: -33.856_784, longitude: 151.215_297, altitude: -12.5)
        return m
    }

    func testEveryFieldRoundTrips() throws {
        let image = TestImages.yuv420(width: 320, height: 240)
        let written = Self.fullMetadata()
        let jpeg = try PhotoEncoder(threads: 1).encode(image: image, metadata: written)
        let read = try ExifReader.read(jpeg: jpeg)
        XCTAssertEqual(read.make, written.make)
        XCTAssertEqual(read.model, written.model)
        XCTAssertEqual(read.software, written.software)
        XCTAssertEqual(read.orientation, .right)
        XCTAssertEqual(read.captureTime, written.captureTime)
        XCTAssertEqual(read.pixelWidth, 320)
        XCTAssertEqual(read.pixelHeight, 240)
        XCTAssertEqual(read.exposureTime!, 1.0 / 120, accuracy: 1e-12)
        XCTAssertEqual(read.iso, 400)
        XCTAssertEqual(read.fNumber!, 1.8, accuracy: 1e-12)
        XCTAssertEqual(read.focalLength!, 4.74, accuracy: 1e-12)
        XCTAssertEqual(read.exposureBias!, -2.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(read.manualExposure, true)
        XCTAssertEqual(read.metering, "spot")
        XCTAssertEqual(read.flashFired, true)
        XCTAssertEqual(read.flashMode, .auto)
        XCTAssertEqual(read.manualWhiteBalance, false)
        XCTAssertEqual(read.lensPosition!, 2.5, accuracy: 1e-9)
        XCTAssertEqual(read.lensModel, written.lensModel)
        XCTAssertEqual(read.serialNumber, written.serialNumber)
        XCTAssertEqual(read.gps!.latitude, -33.856_784, accuracy: 1e-7)
        XCTAssertEqual(read.gps!.longitude, 151.215_297, accuracy: 1e-7)
        XCTAssertEqual(read.gps!.altitude!, -12.5, accuracy: 1e-9)
        XCTAssertNil(read.cameraID)
    }

    func testOtherValuesRoundTrip() throws {
        var m = PhotoMetadata(pixelWidth: 64, pixelHeight: 48, orientation: .leftMirrored)
        m.captureTime = WallTime(
            secondsSince1970: 1_000_000_000, nanoseconds: 123_456_789, utcOffsetSeconds: -5 * 3600 - 1800)
        m.manualExposure = false
        m.metering = "matrix"
        m.flashFired = false
        m.flashMode = .off
        m.manualWhiteBalance = true
        m.lensPosition = 0
        m.exposureTime = 2.5
        let jpeg = try ExifWriter.embed(
            m, thumbnail: nil, into: JPEGEncoder(threads: 1).encode(TestImages.yuv420(width: 64, height: 48)))
        let read = try ExifReader.read(jpeg: jpeg)
        XCTAssertEqual(read.orientation, .leftMirrored)
        XCTAssertEqual(read.captureTime, m.captureTime)
        XCTAssertEqual(read.manualExposure, false)
        XCTAssertEqual(read.metering, "matrix")
        XCTAssertEqual(read.flashFired, false)
        XCTAssertEqual(read.flashMode, .off)
        XCTAssertEqual(read.manualWhiteBalance, true)
        XCTAssertEqual(read.lensPosition, 0, "infinity focus")
        XCTAssertEqual(read.exposureTime, 2.5)
        XCTAssertNil(read.make)
        XCTAssertNil(read.gps)
        XCTAssertNil(read.iso)
        XCTAssertNil(try ExifReader.thumbnail(jpeg: jpeg))
    }

    func testCameraWithoutFlashReadsBackNoFlash() throws {
        let m = PhotoMetadata(pixelWidth: 64, pixelHeight: 48)
        let jpeg = try PhotoEncoder(threads: 1).encode(
            image: TestImages.yuv420(width: 64, height: 48), metadata: m)
        let read = try ExifReader.read(jpeg: jpeg)
        XCTAssertNil(read.flashFired)
        XCTAssertNil(read.flashMode)
    }

    func testThumbnailIs160x120AndAPP1Under64K() throws {
        let jpeg = try PhotoEncoder(threads: 1).encode(
            image: TestImages.yuv420(width: 640, height: 480),
            metadata: Self.fullMetadata())
        let layout = try JPEGLayout(jpeg)
        let app1 = try XCTUnwrap(layout.exifSegment(in: jpeg))
        XCTAssertEqual(layout.segments.first?.marker, 0xE1, "APP1 comes right after SOI")
        XCTAssertLessThan(app1.payload.count + 2, 65_536)
        let thumbnail = try XCTUnwrap(try ExifReader.thumbnail(jpeg: jpeg))
        XCTAssertEqual(try JPEGDecoder.header(thumbnail), PixelSize(width: 160, height: 120))
        XCTAssertFalse(layout.segments.contains { $0.marker == 0xE0 }, "JFIF APP0 is replaced by EXIF")
    }

    func testEmbedReplacesExistingExif() throws {
        var first = Self.fullMetadata()
        first.pixelWidth = 64
        let jpeg = try PhotoEncoder(threads: 1).encode(
            image: TestImages.yuv420(width: 64, height: 48), metadata: first)
        var second = PhotoMetadata(pixelWidth: 64, pixelHeight: 48, orientation: .down)
        second.make = "Other"
        let rewritten = try ExifWriter.embed(second, thumbnail: nil, into: jpeg)
        let read = try ExifReader.read(jpeg: rewritten)
        XCTAssertEqual(read.make, "Other")
        XCTAssertEqual(read.orientation, .down)
        XCTAssertNil(read.lensModel)
        XCTAssertEqual(try JPEGLayout(rewritten).segments.filter { $0.marker == 0xE1 }.count, 1)
    }

    func testOversizedExifIsRejected() throws {
        var m = PhotoMetadata(pixelWidth: 64, pixelHeight: 48)
        m.lensModel = String(repeating: "x", count: 70_000)
        let jpeg = try JPEGEncoder(threads: 1).encode(TestImages.yuv420(width: 64, height: 48))
        XCTAssertThrowsError(try ExifWriter.embed(m, thumbnail: nil, into: jpeg)) { error in
            XCTAssertTrue("\(error)".contains("over the 64 KB APP1 limit"), "\(error)")
        }
    }

    func testLongStringsShrinkTheThumbnailToStayUnder64K() throws {
        var m = PhotoMetadata(pixelWidth: 0, pixelHeight: 0)
        m.lensModel = String(repeating: "L", count: 32_000)
        m.serialNumber = String(repeating: "S", count: 32_000)
        let jpeg = try PhotoEncoder(threads: 1).encode(
            image: TestImages.yuv420(width: 320, height: 240), metadata: m)
        let app1 = try XCTUnwrap(try JPEGLayout(jpeg).exifSegment(in: jpeg))
        XCTAssertLessThan(app1.payload.count + 2, 65_536)
        XCTAssertEqual(try ExifReader.read(jpeg: jpeg).lensModel?.count, 32_000)
        XCTAssertNil(try ExifReader.thumbnail(jpeg: jpeg), "no room left for a thumbnail")
    }

    func testJPEGWithoutExifGivesSizeFromFrameHeader() throws {
        let jpeg = try JPEGEncoder(threads: 1).encode(TestImages.yuv420(width: 90, height: 70))
        let read = try ExifReader.read(jpeg: jpeg)
        XCTAssertEqual(read.pixelWidth, 90)
        XCTAssertEqual(read.pixelHeight, 70)
        XCTAssertEqual(read.orientation, .up)
        XCTAssertNil(read.captureTime)
    }
}
