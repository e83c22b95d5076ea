// The photo's timing record in the index: press-to-exposure lag and standby wake cost, shown and in JSON.

import Foundation
import PinholeCore
import PinholeImaging
import XCTest

@testable import PinholeLibrary
import PinholeLibraryCommandLine

final class PhotoTimingTests: LibraryTestCase {
    func testLagAndWakeCostAreIndexedShownAndInJSON() throws {
        let library = try openLibrary()
        var metadata = testMetadata(taken: WallTime(secondsSince1970: 1_700_000_000))
        metadata.pressToExposure = .microseconds(-400)
        metadata.wakeCost = .microseconds(213_333)
        let timed = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: metadata)
        let untimed = try library.add(jpeg: TestJPEG.make(seed: 2), metadata: testMetadata())

        let stored = try XCTUnwrap(try library.asset(id: timed.id))
        XCTAssertEqual(stored.pressToExposure, .microseconds(-400))
        XCTAssertEqual(stored.wakeCost, .microseconds(213_333))
        XCTAssertNil(try library.asset(id: untimed.id)?.pressToExposure)

        let show = try LibraryCommandLine.execute(["show", timed.id], library: library)
        XCTAssertTrue(show.contains("exposure: began 0.4 ms before the press"), show)
        XCTAssertTrue(show.contains("first usable frame after 213.333 ms"), show)
        let json = try LibraryCommandLine.execute(["show", timed.id, "--json"], library: library)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object["pressToExposureMs"] as? Double, -0.4)
        XCTAssertEqual(object["wakeCostMs"] as? Double, 213.333)

        let plain = try LibraryCommandLine.execute(["show", untimed.id], library: library)
        XCTAssertTrue(plain.contains("exposure: not recorded"), plain)
        XCTAssertFalse(plain.contains("wake:"), plain)
    }

    func testTheLagReadsBeforeOrAfterThePress() {
        XCTAssertEqual(PressLagText.relativeToPress(.microseconds(-400)), "0.4 ms before the press")
        XCTAssertEqual(PressLagText.relativeToPress(.microseconds(12_040)), "12.0 ms after the press")
        XCTAssertEqual(PressLagText.relativeToPress(.zero), "at the press")
        XCTAssertEqual(PressLagText.milliseconds(.microseconds(-400)), "-0.400")
        XCTAssertEqual(PressLagText.milliseconds(.nanoseconds(182_000_000)), "182.000")
    }
}
