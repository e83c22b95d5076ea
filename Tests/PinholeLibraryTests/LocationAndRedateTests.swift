// Place and time in the library: location queries, clock trust, redating, and what exports carry.

import Foundation
import GRDB
import PinholeCore
import PinholeImaging
import XCTest

@testable import PinholeLibrary
import PinholeLibraryCommandLine
import SystemPackage

final class LocationAndRedateTests: LibraryTestCase {
    /// Places: Lausanne, Geneva (about 51 km away), Sydney, and one near the antimeridian.
    static let places: [(name: String, latitude: Double, longitude: Double)?] = [
        ("lausanne", 46.5201, 6.6334), ("geneva", 46.2044, 6.1432), ("sydney", -33.8568, 151.2153),
        ("fiji-east", -17.0, 179.95), nil,
    ]

    /// A library with one photo per place (the last without location), each a real JPEG
    /// whose EXIF holds its metadata; the second one with an unsynchronized clock.
    private func makeLibrary() throws -> (PhotoLibrary, [Asset]) {
        let library = try openLibrary()
        var assets: [Asset] = []
        for (index, place) in Self.places.enumerated() {
            var metadata = testMetadata(
                taken: WallTime(secondsSince1970: 1_700_000_000 + Int64(index) * 60, utcOffsetSeconds: 3600))
            metadata.gps = place.map { GPSFix(latitude: $0.latitude, longitude: $0.longitude, altitude: 400) }
            metadata.clockTrust = index == 1 ? .unsynchronized : .gps
            let jpeg = try ExifWriter.embed(metadata, thumbnail: nil, into: TestJPEG.make(seed: index))
            assets.append(try library.add(jpeg: jpeg, metadata: metadata))
        }
        return (library, assets)
    }

    private func ids(_ words: [String], _ library: PhotoLibrary) throws -> Set<String> {
        let output = try LibraryCommandLine.execute(words + ["--json"], library: library)
        let list = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
        return Set(list.compactMap { $0["id"] as? String })
    }

    func testNearWithinFindsPhotosByGreatCircleDistance() throws {
        let (library, a) = try makeLibrary()
        XCTAssertEqual(try ids(["list", "--near", "46.5197,6.6323", "--within", "1"], library), [a[0].id])
        XCTAssertEqual(
            try ids(["list", "--near", "46.5197,6.6323", "--within", "60"], library), [a[0].id, a[1].id])
        XCTAssertEqual(try ids(["list", "--near", "46.5197,6.6323", "--within", "45"], library), [a[0].id])
        // Across the antimeridian: 179.95 E is about 10 km from 179.95 W at 17 S.
        XCTAssertEqual(try ids(["list", "--near", "-17.0,-179.95", "--within", "15"], library), [a[3].id])
        XCTAssertEqual(try ids(["list", "--with-location"], library).count, 4)
        XCTAssertEqual(try ids(["list", "--without-location"], library), [a[4].id])
        XCTAssertEqual(
            try LibraryCommandLine.execute(
                ["count", "--near", "0,0", "--within", "20100"], library: library), "4")
        XCTAssertEqual(GeoDistance.kilometres(46.5201, 6.6334, 46.2044, 6.1432), 51.5, accuracy: 1)
    }

    func testLocationQueriesUseTheLocationIndex() throws {
        let (library, _) = try makeLibrary()
        let plan = try library.pool.read { db in
            let sql = QuerySQL(
                AssetQuery.all.filter(.near(latitude: 46.5, longitude: 6.6, kilometres: 5)))
            return try Row.fetchAll(
                db,
                sql: "EXPLAIN QUERY PLAN SELECT id FROM asset WHERE "
                    + sql.conditions.joined(separator: " AND ")
                    + " ORDER BY created_ns",
                arguments: StatementArguments(sql.arguments)
            ).map { $0["detail"] as String? ?? "" }.joined(separator: "\n")
        }
        XCTAssertTrue(plan.contains("asset_by_location"), plan)
    }

    func testBadLocationOptionsAreRejectedWithTheirReason() throws {
        let (library, _) = try makeLibrary()
        for (words, expected) in [
            (["list", "--near", "91,0", "--within", "1"], "--near needs LAT,LON"),
            (["list", "--near", "46.5", "--within", "1"], "--near needs LAT,LON"),
            (["list", "--near", "46.5,6.6"], "--near needs --within"),
            (["list", "--near", "46.5,6.6", "--within", "-3"], "--within needs a radius"),
            (["list", "--near", "46.5,6.6", "--within", "nan"], "--within needs a radius"),
            (["list", "--within", "3"], "--within needs --near"),
            (["list", "--clock", "sundial"], "--clock must be"),
            (["redate", "--by", "60"], "a range needs --from or --to"),
            (["redate", "--from", "2023-01-01", "--by", "0"], "--by needs a non-zero number"),
            (["redate", "--from", "2023-01-01"], "usage: library redate"),
        ] {
            XCTAssertThrowsError(try LibraryCommandLine.execute(words, library: library), "\(words)") {
                error in
                XCTAssertTrue("\(error)".contains(expected), "\(words): \(error)")
            }
        }
    }

    func testClockTrustIsRecordedListedAndFiltered() throws {
        let (library, a) = try makeLibrary()
        XCTAssertEqual(try library.asset(id: a[1].id)?.clockTrust, .unsynchronized)
        XCTAssertEqual(try ids(["list", "--clock", "unsynchronized"], library), [a[1].id])
        let list = try LibraryCommandLine.execute(["list"], library: library)
        XCTAssertTrue(list.contains("\(a[1].id)  "), list)
        XCTAssertTrue(
            list.split(separator: "\n").first { $0.hasPrefix(a[1].id) }!.hasSuffix(
                "located clock:unsynchronized"), list)
        let show = try LibraryCommandLine.execute(["show", a[4].id], library: library)
        XCTAssertTrue(show.contains("location: none") && show.contains("clock: gps"), show)
    }

    func testRedateByIDsMovesIndexAndListingsButNotTheOriginal() throws {
        let (library, a) = try makeLibrary()
        let originalBytes = try library.originalData(of: a[1])
        let answer = try LibraryCommandLine.execute(["redate", a[1].id, "--by", "-86400"], library: library)
        XCTAssertEqual(answer, "ok 1 redated by -86400s")
        let moved = try XCTUnwrap(try library.asset(id: a[1].id))
        XCTAssertEqual(moved.created.secondsSince1970, a[1].created.secondsSince1970 - 86_400)
        XCTAssertEqual(moved.originalCreated, a[1].created)
        XCTAssertEqual(try library.originalData(of: moved), originalBytes, "the original is never modified")
        XCTAssertEqual(try library.assets(.all).first?.id, a[1].id, "now the oldest")
        let show = try LibraryCommandLine.execute(["show", a[1].id], library: library)
        XCTAssertTrue(show.contains("redated: -86400s (the original says \(a[1].created.iso8601))"), show)
        let json = try LibraryCommandLine.execute(["show", a[1].id, "--json"], library: library)
        XCTAssertTrue(json.contains("\"dateShiftSeconds\":-86400"), json)
        XCTAssertEqual(try library.fsck(verifyChecksums: true).isClean, true)
    }

    func testRedateARangeOnlyTouchesPhotosInIt() throws {
        let (library, a) = try makeLibrary()
        // Photos 1 and 2 (taken at +60 s and +120 s) move forward by an hour.
        let from = a[1].created.iso8601, to = a[3].created.iso8601
        let answer = try LibraryCommandLine.execute(
            ["redate", "--from", from, "--to", to, "--by", "3600", "--json"], library: library)
        XCTAssertTrue(
            answer.contains(a[1].id) && answer.contains(a[2].id) && !answer.contains(a[3].id), answer)
        let after = try library.assets(.all)
        XCTAssertEqual(after.map(\.id), [a[0].id, a[3].id, a[4].id, a[1].id, a[2].id])
        XCTAssertEqual(after.first { $0.id == a[0].id }?.dateShift, .zero)
        XCTAssertEqual(after.first { $0.id == a[2].id }?.dateShift, .seconds(3600))
        // A second correction adds up.
        _ = try LibraryCommandLine.execute(["redate", a[2].id, "--by", "-600"], library: library)
        XCTAssertEqual(try library.asset(id: a[2].id)?.dateShift, .seconds(3000))
    }

    func testExportsCarryTheCorrectedEXIFDates() throws {
        let out = TemporaryDirectory("pinhole-export")
        let (library, a) = try makeLibrary()
        _ = try LibraryCommandLine.execute(["redate", a[1].id, "--by", "7200"], library: library)
        let report = try library.export(.all.filter(.ids([a[0].id, a[1].id])), to: FilePath(out.path))
        XCTAssertEqual(report.written.count, 2)
        let exported = try report.written.map {
            try ExifReader.read(jpeg: [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))))
        }
        XCTAssertEqual(exported[0].captureTime, a[0].created, "not redated: unchanged")
        XCTAssertEqual(exported[1].captureTime?.secondsSince1970, a[1].created.secondsSince1970 + 7200)
        XCTAssertEqual(exported[1].gps?.latitude ?? 0, 46.2044, accuracy: 1e-6)
        XCTAssertEqual(exported[1].clockTrust, .unsynchronized)
        XCTAssertTrue(
            report.written[1].hasSuffix(
                PhotoLibrary.exportName(of: try XCTUnwrap(library.asset(id: a[1].id)))))

        // A tonal render has no EXIF of its own: its export gets the corrected date too.
        _ = try LibraryCommandLine.execute(
            ["edit", "adjust", a[1].id, "--exposure", "0.5"], library: library)
        let rendered = TemporaryDirectory("pinhole-export-rendered")
        let renderReport = try library.export(
            .all.filter(.ids([a[1].id])), to: FilePath(rendered.path), version: .current)
        let render = try ExifReader.read(
            jpeg: [UInt8](Data(contentsOf: URL(fileURLWithPath: renderReport.written[0]))))
        XCTAssertEqual(render.captureTime?.secondsSince1970, a[1].created.secondsSince1970 + 7200)
        XCTAssertEqual(render.clockTrust, .unsynchronized)
    }

    func testTheMigrationKeepsOlderPhotos() throws {
        let (library, a) = try makeLibrary()
        // A photo indexed before clock trust existed reads as "not recorded" and counts as unknown.
        try library.pool.write { db in
            try db.execute(sql: "UPDATE asset SET clock_trust = NULL WHERE id = ?", arguments: [a[0].id])
        }
        XCTAssertNil(try library.asset(id: a[0].id)?.clockTrust)
        XCTAssertEqual(try ids(["list", "--clock", "unknown"], library), [a[0].id])
    }
}
