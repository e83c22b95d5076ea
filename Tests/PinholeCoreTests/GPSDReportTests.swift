// gpsd's JSON reports: real lines parse to the right values; hostile lines are refused, never trusted.

import Foundation
import PinholeCore
import XCTest

final class GPSDReportTests: XCTestCase {
    private func corpus() throws -> [(name: String, bytes: [UInt8])] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/gpsd/corpus")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            ($0, [UInt8](try Data(contentsOf: directory.appendingPathComponent($0))))
        }
    }

    private func parse(_ line: String) throws -> GPSDReport { try GPSDReport.parse(Array(line.utf8)) }

    func testRealReportsFromGPSD() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try corpus().map { ($0.name, $0.bytes) })
        guard case .position(let fix) = try GPSDReport.parse(XCTUnwrap(seeds["real-tpv3.json"])) else {
            return XCTFail("not a position")
        }
        XCTAssertEqual(fix.mode, 3)
        XCTAssertTrue(fix.hasFix)
        XCTAssertEqual(fix.latitude, 46.5201)
        XCTAssertEqual(fix.longitude, 6.6334)
        XCTAssertEqual(fix.altitude, 495.2, "altMSL, not altHAE")
        XCTAssertEqual(fix.speed, 2.5)
        XCTAssertEqual(fix.track, 271.2)
        XCTAssertEqual(fix.time?.iso8601, "2026-11-21T09:21:18.000+00:00")
        guard case .sky(let sky) = try GPSDReport.parse(XCTUnwrap(seeds["real-sky.json"])) else {
            return XCTFail("not a sky report")
        }
        XCTAssertEqual(sky, GPSDSky(satellitesUsed: 9, hdop: 0.9, pdop: 1.6))
        guard case .position(let none) = try GPSDReport.parse(XCTUnwrap(seeds["real-tpv1.json"])) else {
            return XCTFail("not a position")
        }
        XCTAssertFalse(none.hasFix)
        XCTAssertEqual(try GPSDReport.parse(XCTUnwrap(seeds["real-version.json"])), .version(release: "3.22"))
        XCTAssertEqual(try GPSDReport.parse(XCTUnwrap(seeds["real-watch.json"])), .watch(enabled: true))
        XCTAssertEqual(try parse(#"{"class":"DEVICES","devices":[]}"#), .devices(count: 0))
        XCTAssertEqual(try parse(#"{"class":"PPS","x":1}"#), .other(className: "PPS"))
        XCTAssertEqual(
            try parse(#"{"class":"ERROR","message":"unrecognized request"}"#),
            .error(message: "unrecognized request"))
    }

    func testOutOfRangeFieldsAreDroppedAndAPositionOffEarthIsNoFix() throws {
        guard
            case .position(let fix) = try parse(
                #"{"class":"TPV","mode":3,"lat":91,"lon":-200,"alt":1e6,"speed":-1,"track":360,"time":"2026-13-01T00:00:00Z"}"#
            )
        else { return XCTFail("not a position") }
        XCTAssertNil(fix.latitude)
        XCTAssertNil(fix.longitude)
        XCTAssertNil(fix.altitude)
        XCTAssertNil(fix.speed)
        XCTAssertNil(fix.track)
        XCTAssertNil(fix.time)
        XCTAssertFalse(fix.hasFix)
        guard case .position(let odd) = try parse(#"{"class":"TPV","mode":7,"lat":1,"lon":2}"#) else {
            return XCTFail("not a position")
        }
        XCTAssertEqual(odd.mode, 0)
        XCTAssertFalse(odd.hasFix)
    }

    func testMalformedLinesThrowWithAReason() {
        for (line, reason) in [
            ("", "unexpected end"), ("{", "expected a key"), (#"{"mode":3}"#, "no \"class\""),
            ("[1,2]", "not a JSON object"),
            (#"{"class":"TPV"} x"#, "text after the value"),
            (String(repeating: "[", count: 100), "nested deeper"),
            (#"{"class":"TPV","lat":1e999}"#, "expected a value"),
        ] {
            XCTAssertThrowsError(try parse(line), line) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(line): \(error)")
            }
        }
        XCTAssertThrowsError(
            try GPSDReport.parse([UInt8](repeating: 0x20, count: GPSDReport.maxLineBytes + 1)))
    }

    func testTimes() {
        XCTAssertEqual(GPSDReport.parseTime("1970-01-01T00:00:00Z"), WallTime(secondsSince1970: 0))
        XCTAssertEqual(
            GPSDReport.parseTime("2026-11-21T09:21:27.5Z"),
            WallTime(secondsSince1970: 1_795_252_887, nanoseconds: 500_000_000))
        XCTAssertEqual(GPSDReport.parseTime("2000-02-29T23:59:59.123456789Z")?.nanoseconds, 123_456_789)
        for bad in [
            "2026-11-21 09:21:27Z", "2026-11-21T09:21:27", "2026-11-21T09:21:27.Z", "2026-11-21T24:00:00Z",
            "2026-11-21T09:21:27.1234567890Z", "20x6-11-21T09:21:27Z",
        ] {
            XCTAssertNil(GPSDReport.parseTime(bad), bad)
        }
    }

    func testEveryCorpusLineParsesOrThrowsWithoutTrapping() throws {
        let seeds = try corpus()
        XCTAssertGreaterThanOrEqual(seeds.count, 15)
        var parsed = 0
        for (name, bytes) in seeds {
            if let report = try? GPSDReport.parse(bytes) {
                parsed += 1
                if case .position(let position) = report, position.hasFix {
                    XCTAssertTrue(abs(position.latitude!) <= 90 && abs(position.longitude!) <= 180, name)
                }
            }
            _ = try? JSONValue.parse(bytes)
        }
        XCTAssertGreaterThanOrEqual(parsed, 8, "the real reports and the odd-but-valid ones")
    }
}
