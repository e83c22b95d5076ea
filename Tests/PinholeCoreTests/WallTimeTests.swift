// Tests of civil date conversion and EXIF/ISO formatting.

import XCTest
@testable import PinholeCore

final class WallTimeTests: XCTestCase {
    func testCivilDateOfKnownInstants() {
        XCTAssertEqual(CivilDateTime(epochSeconds: 0).exifString, "1970:01:01 00:00:00")
        XCTAssertEqual(CivilDateTime(epochSeconds: 951_782_400).exifString, "2000:02:29 00:00:00")
        XCTAssertEqual(CivilDateTime(epochSeconds: 1_795_000_000).exifString, "2026:11:18 11:06:40")
    }

    func testNegativeOffsetAndISO8601() {
        let time = WallTime(
            secondsSince1970: 1_795_000_000, nanoseconds: 42_000_000, utcOffsetSeconds: -5 * 3600 - 1800)
        XCTAssertEqual(time.exifOffset, "-05:30")
        XCTAssertEqual(time.exifDateTime, "2026:11:18 05:36:40")
        XCTAssertEqual(time.iso8601, "2026-11-18T05:36:40.042-05:30")
    }

    func testAddingCarriesIntoSeconds() {
        let time = WallTime(secondsSince1970: 10, nanoseconds: 900_000_000).adding(.milliseconds(250))
        XCTAssertEqual(time.secondsSince1970, 11)
        XCTAssertEqual(time.nanoseconds, 150_000_000)
    }
}
