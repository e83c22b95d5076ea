// Every Asset field survives the database: written, then read back through every read path.

import GRDB
import PinholeCore
import PinholeImaging
import XCTest

@testable import PinholeLibrary

final class AssetRecordTests: LibraryTestCase {
    override class var opensLibrary: Bool { true }

    /// An asset with every field set, each to a value no decoder would invent (no default,
    /// no zero, no nil, no value shared with another field of the same type).
    private func everyFieldSet(id: String = "0190aaaa-bbbb-7ccc-8ddd-eeeeffff0001") -> Asset {
        Asset(
            id: id, path: "originals/2026/11/23/\(id).jpg",
            created: WallTime(
                secondsSince1970: 1_790_000_001, nanoseconds: 123_456_789, utcOffsetSeconds: 3600),
            added: WallTime(secondsSince1970: 1_790_000_002, nanoseconds: 2, utcOffsetSeconds: -18_000),
            modified: WallTime(secondsSince1970: 1_790_000_003, nanoseconds: 3, utcOffsetSeconds: 19_800),
            cameraID: "cam1", make: "Pinhole Works", model: "PH-1", pixelWidth: 4056, pixelHeight: 3040,
            orientation: .leftMirrored, exposureTime: 1.0 / 250, iso: 400, fNumber: 2.8, focalLength: 6.0,
            lensPosition: 1.5, flashFired: true,
            gps: GPSFix(latitude: 48.8566, longitude: -2.3522, altitude: 35.5), fileSize: 3_456_789,
            checksum: "crc32:0badf00d", favorite: true, hidden: true,
            deleted: WallTime(secondsSince1970: 1_790_000_004, nanoseconds: 4, utcOffsetSeconds: 7200),
            editRevision: 3, clockTrust: .gps, dateShift: .seconds(-90), pressToExposure: .milliseconds(-12),
            wakeCost: .milliseconds(213), mediaType: .video, duration: .milliseconds(2500), frameRate: 29.97,
            codec: "h264", triggerOffset: .milliseconds(1500))
    }

    /// The same asset's optional fields all nil (stored as NULL), the flags off.
    private func optionalsNil(id: String = "0191aaaa-bbbb-7ccc-8ddd-eeeeffff0002") -> Asset {
        var asset = everyFieldSet(id: id)
        asset.cameraID = nil
        asset.make = nil
        asset.model = nil
        asset.exposureTime = nil
        asset.iso = nil
        asset.fNumber = nil
        asset.focalLength = nil
        asset.lensPosition = nil
        asset.flashFired = nil
        asset.gps = nil
        asset.deleted = nil
        asset.favorite = false
        asset.hidden = false
        asset.clockTrust = nil
        asset.pressToExposure = nil
        asset.wakeCost = nil
        asset.duration = nil
        asset.frameRate = nil
        asset.codec = nil
        asset.triggerOffset = nil
        return asset
    }

    private func insert(_ assets: [Asset]) throws { try library.insertRows(assets) }

    /// The sample really sets every field: a field added to `Asset` and left out here fails.
    func testTheSampleSetsEveryField() {
        let sample = everyFieldSet()
        for child in Mirror(reflecting: sample).children {
            let label = child.label ?? "?"
            let value = child.value
            let text = "\(value)"
            XCTAssertFalse(
                ["nil", "false", "0", "0.0", "0.0 seconds", "up", ""].contains(text),
                "\(label) has a default-like value \(text)")
        }
        // 34 columns: three times are two columns each (instant, offset), the deletion time too, and
        // the GPS fix three (latitude, longitude, altitude).
        XCTAssertEqual(Mirror(reflecting: sample).children.count, AssetColumn.allCases.count - 6)
    }

    func testEveryFieldRoundTripsThroughEveryReadPath() throws {
        let full = everyFieldSet()
        let bare = optionalsNil()
        try insert([full, bare])
        let everything = AssetQuery.all.trash(.included).includingHidden()

        XCTAssertEqual(try library.asset(id: full.id), full)
        XCTAssertEqual(try library.asset(id: bare.id), bare)
        XCTAssertEqual(try library.asset(matching: String(full.id.prefix(8))), full)
        XCTAssertEqual(try library.asset(matching: String(bare.id.prefix(8))), bare)
        XCTAssertEqual(Set(try library.assets(everything)), [full, bare])
        XCTAssertEqual(Set(try library.page(everything, after: nil, pageSize: 10).assets), [full, bare])
        XCTAssertEqual(Set(try library.page(everything, offset: 0, pageSize: 10).assets), [full, bare])
        let album = try library.performChanges { batch in
            let album = batch.createAlbum(title: "A")
            batch.addAssets([bare.id, full.id], to: album)
        }.createdAlbumIDs[0]
        XCTAssertEqual(
            try library.assets(library.albumQuery(album).trash(.included).includingHidden()), [bare, full])
    }

    /// Columns are found by name, once per statement: rows whose columns come in another
    /// order (and with unrelated columns among them) decode to the same assets.
    func testRowsDecodeByColumnNameInAnyOrder() throws {
        let full = everyFieldSet()
        let bare = optionalsNil()
        try insert([full, bare])
        let columns = AssetColumn.allCases.reversed().map(\.name).joined(separator: ", ")
        let decoded = try library.read { db in
            try Asset.all(
                in: db.makeStatement(sql: "SELECT 'x' AS junk, \(columns), 7 AS more FROM asset ORDER BY id"),
                arguments: [])
        }
        XCTAssertEqual(decoded, [full, bare])
        let oneByOne = try library.read { db in
            try Row.fetchAll(db, sql: "SELECT \(columns) FROM asset ORDER BY id").map { try Asset(row: $0) }
        }
        XCTAssertEqual(oneByOne, [full, bare])
    }

    /// A missing required column or a stored value of the wrong type is an error naming the
    /// column, never a default.
    func testMissingOrMistypedColumnsAreErrors() throws {
        try insert([everyFieldSet()])
        let withoutChecksum = AssetColumn.allCases.filter { $0 != .checksum }.map(\.name).joined(
            separator: ", ")
        XCTAssertThrowsError(
            try library.read { db in
                try Asset.all(
                    in: db.makeStatement(sql: "SELECT \(withoutChecksum) FROM asset"), arguments: [])
            }
        ) { error in XCTAssertTrue("\(error)".contains("checksum"), "\(error)") }
        let mistyped = AssetColumn.allCases.map { $0 == .width ? "NULL AS width" : $0.name }
            .joined(separator: ", ")
        XCTAssertThrowsError(
            try library.read { db in
                try Asset.all(in: db.makeStatement(sql: "SELECT \(mistyped) FROM asset"), arguments: [])
            }
        ) { error in XCTAssertTrue("\(error)".contains("column: \"width\""), "\(error)") }
    }
}
