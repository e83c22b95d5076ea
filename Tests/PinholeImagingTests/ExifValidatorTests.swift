// A saved photo passes exiftool's strict validation and exiv2 reads its tags.

import Foundation
import PinholeCore
@testable import PinholeImaging
import XCTest

final class ExifValidatorTests: XCTestCase {
    private func savedPhoto(_ metadata: PhotoMetadata = ExifRoundTripTests.fullMetadata()) throws -> URL {
        let jpeg = try PhotoEncoder(threads: 2).encode(
            image: TestImages.yuv420(width: 640, height: 480),
            metadata: metadata)
        let file = try TestImages.temporaryDirectory(for: self).appendingPathComponent("photo.jpg")
        try Data(jpeg).write(to: file)
        if let keep = ProcessInfo.processInfo.environment["PINHOLE_KEEP_PHOTO"] {
            try Data(jpeg).write(to: URL(fileURLWithPath: keep))
        }
        return file
    }

    func testExiftoolValidateReportsNoWarnings() throws {
        try validate(savedPhoto())
    }

    func testMinimalMetadataAlsoValidates() throws {
        try validate(savedPhoto(PhotoMetadata(pixelWidth: 640, pixelHeight: 480)))
    }

    private func validate(_ file: URL) throws {
        let result = try TestImages.run(
            "exiftool", ["-validate", "-warning", "-error", "-a", "-G1", file.path])
        let output = String(decoding: result.output, as: UTF8.self)
        XCTAssertTrue(
            output.contains("Validate") && output.contains(": OK"), "exiftool -validate says:\n\(output)")
        XCTAssertFalse(output.contains("Warning"), "exiftool -validate warns:\n\(output)")
        XCTAssertFalse(output.contains("Error"), "exiftool -validate errors:\n\(output)")
    }

    func testExiftoolSeesTagsInTheRightIFDs() throws {
        let file = try savedPhoto()
        let result = try TestImages.run("exiftool", ["-a", "-G1", "-s", "-n", file.path])
        // Collapse exiftool's column padding: "[IFD0]     Make" becomes "[IFD0] Make".
        let output = String(decoding: result.output, as: UTF8.self).split(
            separator: " ", omittingEmptySubsequences: true
        )
        .joined(separator: " ")
        var missing: [String] = []
        for expected in [
            "[IFD0] Make", "[IFD0] Model", "[IFD0] Orientation", "[IFD0] Software", "[IFD0] ModifyDate",
            "[IFD0] XResolution", "[ExifIFD] DateTimeOriginal", "[ExifIFD] CreateDate",
            "[ExifIFD] OffsetTimeOriginal", "[ExifIFD] SubSecTimeOriginal", "[ExifIFD] ExposureTime",
            "[ExifIFD] FNumber", "[ExifIFD] FocalLength", "[ExifIFD] ISO", "[ExifIFD] ExposureCompensation",
            "[ExifIFD] ExposureMode", "[ExifIFD] MeteringMode", "[ExifIFD] Flash", "[ExifIFD] WhiteBalance",
            "[ExifIFD] SubjectDistance", "[ExifIFD] ExifImageWidth", "[ExifIFD] ExifImageHeight",
            "[ExifIFD] LensModel", "[ExifIFD] SerialNumber", "[GPS] GPSLatitude", "[GPS] GPSLongitude",
            "[GPS] GPSAltitude", "[IFD1] ThumbnailLength", "[IFD1] Compression",
        ]
        where !output.contains(expected) {
            missing.append(expected)
        }
        XCTAssertEqual(missing, [], "exiftool output:\n\(output)")
    }

    func testExiv2ReadsTheDate() throws {
        let file = try savedPhoto()
        let result = try TestImages.run("exiv2", ["-K", "Exif.Photo.DateTimeOriginal", "-Pv", file.path])
        XCTAssertEqual(result.status, 0)
        let expected = ExifRoundTripTests.fullMetadata().captureTime!.exifDateTime
        XCTAssertEqual(
            String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
            expected)
    }
}
