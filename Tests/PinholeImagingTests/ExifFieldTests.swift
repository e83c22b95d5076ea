// The GPS IFD's details, the clock-trust marker, OffsetTime only with a known zone, and redated exports.

import Foundation
import PinholeCore
@testable import PinholeImaging
import XCTest

final class ExifFieldTests: XCTestCase {
    static func fieldMetadata() -> PhotoMetadata {
        var m = ExifRoundTripTests.fullMetadata()
        var fix = GPSFix(latitude: 46.520_1, longitude: 6.633_4, altitude: 495.2)
        fix.time = WallTime(secondsSince1970: 1_795_252_887, nanoseconds: 500_000_000)
        fix.satellites = 9
        fix.dop = 1.4
        fix.measureMode = 3
        fix.speed = 2.5
        fix.track = 271.25
        m.gps = fix
        m.clockTrust = .gps
        return m
    }

    private func photo(_ metadata: PhotoMetadata) throws -> (bytes: [UInt8], file: URL) {
        let jpeg = try PhotoEncoder(threads: 1).encode(
            image: TestImages.yuv420(width: 320, height: 240), metadata: metadata)
        let file = try TestImages.temporaryDirectory(for: self).appendingPathComponent("photo.jpg")
        try Data(jpeg).write(to: file)
        return (jpeg, file)
    }

    private func exiftool(_ arguments: [String]) throws -> String {
        let result = try TestImages.run("exiftool", arguments)
        return String(decoding: result.output, as: UTF8.self)
    }

    func testGPSDetailsAndClockMarkerRoundTrip() throws {
        let written = Self.fieldMetadata()
        let read = try ExifReader.read(jpeg: try photo(written).bytes)
        let fix = try XCTUnwrap(read.gps)
        XCTAssertEqual(fix.latitude, 46.520_1, accuracy: 1e-6)
        XCTAssertEqual(fix.longitude, 6.633_4, accuracy: 1e-6)
        XCTAssertEqual(fix.altitude!, 495.2, accuracy: 1e-3)
        XCTAssertEqual(fix.time, written.gps?.time)
        XCTAssertEqual(fix.satellites, 9)
        XCTAssertEqual(fix.dop!, 1.4, accuracy: 1e-6)
        XCTAssertEqual(fix.measureMode, 3)
        XCTAssertEqual(fix.speed!, 2.5, accuracy: 0.01)
        XCTAssertEqual(fix.track!, 271.25, accuracy: 1e-6)
        XCTAssertEqual(read.clockTrust, .gps)
        XCTAssertTrue(read.timeZoneKnown)
    }

    func testExiftoolValidatesAndReadsTheGPSIFD() throws {
        let file = try photo(Self.fieldMetadata()).file
        let validation = try exiftool(["-validate", "-warning", "-error", "-a", file.path])
        XCTAssertTrue(validation.contains(": OK"), validation)
        XCTAssertFalse(validation.contains("Warning"), validation)
        let tags = try exiftool(["-a", "-G1", "-s", "-n", file.path]).split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        for expected in [
            "[GPS] GPSLatitudeRef : N", "[GPS] GPSLongitudeRef : E", "[GPS] GPSAltitude : 495.2",
            "[GPS] GPSTimeStamp : 09:21:27.5", "[GPS] GPSDateStamp : 2026:11:21", "[GPS] GPSSatellites : 9",
            "[GPS] GPSMeasureMode : 3", "[GPS] GPSDOP : 1.4", "[GPS] GPSSpeedRef : K", "[GPS] GPSSpeed : 9",
            "[GPS] GPSTrackRef : T", "[GPS] GPSTrack : 271.25", "[GPS] GPSMapDatum : WGS-84",
            "[ExifIFD] UserComment : Pinhole clock: gps", "[ExifIFD] OffsetTimeOriginal : +01:00",
        ] {
            XCTAssertTrue(
                tags.contains(expected), "exiftool lacks '\(expected)':\n\(tags.joined(separator: "\n"))")
        }
    }

    func testNoOffsetTimeWhenTheZoneIsUnknown() throws {
        var metadata = Self.fieldMetadata()
        metadata.timeZoneKnown = false
        metadata.clockTrust = .unsynchronized
        let (bytes, file) = try photo(metadata)
        let read = try ExifReader.read(jpeg: bytes)
        XCTAssertFalse(read.timeZoneKnown)
        XCTAssertEqual(read.clockTrust, .unsynchronized)
        let tags = try exiftool(["-a", "-G1", "-s", file.path])
        XCTAssertFalse(tags.contains("OffsetTime"), tags)
        XCTAssertTrue(tags.contains("Pinhole clock: unsynchronized"), tags)
    }

    func testRestampRewritesOnlyTheDates() throws {
        let metadata = Self.fieldMetadata()
        let original = try photo(metadata).bytes
        let corrected = metadata.captureTime!.adding(.seconds(86_400 * 400 + 3_725))
        let stamped = try XCTUnwrap(try ExifDateStamp.restamp(original, to: corrected))
        XCTAssertEqual(stamped.count, original.count)
        let differing = zip(stamped, original).filter { $0 != $1 }.count
        XCTAssertGreaterThan(differing, 0)
        XCTAssertLessThanOrEqual(differing, 3 * 19, "only the three date strings change")
        let read = try ExifReader.read(jpeg: stamped)
        XCTAssertEqual(read.captureTime?.secondsSince1970, corrected.secondsSince1970)
        XCTAssertEqual(read.gps?.time, metadata.gps?.time, "the satellites' time stays as it was")
        let file = try TestImages.temporaryDirectory(for: self).appendingPathComponent("stamped.jpg")
        try Data(stamped).write(to: file)
        let dates = try exiftool(["-s", "-DateTimeOriginal", "-CreateDate", "-ModifyDate", file.path])
        XCTAssertEqual(dates.components(separatedBy: corrected.exifDateTime).count - 1, 3, dates)
        XCTAssertNil(
            try ExifDateStamp.restamp(
                try JPEGEncoder(quality: 80).encode(
                    TestImages.rgb(from: TestImages.yuv420(width: 16, height: 16))), to: corrected))
    }

    func testTheTimingRecordAndZoomAreInUserCommentAndDigitalZoomRatio() throws {
        var metadata = Self.fieldMetadata()
        metadata.pressToExposure = .microseconds(-400)
        metadata.wakeCost = .microseconds(182_500)
        metadata.digitalZoom = 2.5
        let (bytes, file) = try photo(metadata)
        let read = try ExifReader.read(jpeg: bytes)
        XCTAssertEqual(read.clockTrust, .gps)
        XCTAssertEqual(read.pressToExposure, .microseconds(-400))
        XCTAssertEqual(read.wakeCost, .microseconds(182_500))
        XCTAssertEqual(read.digitalZoom, 2.5)
        let tags = try exiftool(["-a", "-G1", "-s", "-n", "-UserComment", "-DigitalZoomRatio", file.path])
        XCTAssertTrue(
            tags.contains("Pinhole clock: gps; press-to-exposure: -0.400 ms; wake: 182.500 ms"), tags)
        XCTAssertTrue(tags.contains("DigitalZoomRatio                : 2.5"), tags)

        var bare = Self.fieldMetadata()
        bare.clockTrust = nil
        bare.pressToExposure = .milliseconds(12)
        let bareRead = try ExifReader.read(jpeg: try photo(bare).bytes)
        XCTAssertNil(bareRead.clockTrust)
        XCTAssertEqual(bareRead.pressToExposure, .milliseconds(12))
        XCTAssertNil(bareRead.wakeCost)
        XCTAssertNil(bareRead.digitalZoom, "no zoom: no DigitalZoomRatio")
    }
}
