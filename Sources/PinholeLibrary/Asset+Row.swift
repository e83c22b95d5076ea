// Mapping between `Asset` values and rows of the `asset` table.

import GRDB
import PinholeCore
import PinholeImaging

extension WallTime {
    /// Nanoseconds since the Unix epoch (UTC), the sortable form stored in the database.
    var epochNanoseconds: Int64 { secondsSince1970 &* 1_000_000_000 &+ Int64(nanoseconds) }

    /// Rebuilds a wall time from stored nanoseconds and offset.
    init(epochNanoseconds: Int64, utcOffsetSeconds: Int32) {
        var seconds = epochNanoseconds / 1_000_000_000
        var nanos = epochNanoseconds % 1_000_000_000
        if nanos < 0 { nanos += 1_000_000_000; seconds -= 1 }
        self.init(secondsSince1970: seconds, nanoseconds: Int32(nanos), utcOffsetSeconds: utcOffsetSeconds)
    }
}

extension Asset {
    /// Column list of the `asset` table, in the order `insertArguments` uses.
    static let columns = [
        "id", "path", "created_ns", "created_offset", "added_ns", "added_offset", "modified_ns",
        "modified_offset", "camera_id", "make", "model", "width", "height", "orientation",
        "exposure_time", "iso", "f_number", "focal_length", "lens_position", "flash_fired",
        "latitude", "longitude", "altitude", "file_size", "checksum", "favorite", "hidden",
        "deleted_ns", "deleted_offset", "edit_revision", "clock_trust", "date_shift_ns",
    ]

    /// `INSERT INTO asset (...) VALUES (?, ...)`.
    static let insertSQL =
        "INSERT INTO asset (\(columns.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"

    /// The column list of a SELECT of whole assets.
    static let selectColumns = columns.map { "asset." + $0 }.joined(separator: ", ")

    /// `SELECT <columns> FROM asset`.
    static let selectSQL = "SELECT \(selectColumns) FROM asset"

    /// Statement arguments for `insertSQL`.
    var insertArguments: StatementArguments {
        let values: [(any DatabaseValueConvertible)?] = [
            id, path, created.epochNanoseconds, created.utcOffsetSeconds, added.epochNanoseconds,
            added.utcOffsetSeconds, modified.epochNanoseconds, modified.utcOffsetSeconds, cameraID,
            make, model, pixelWidth, pixelHeight, orientation.rawValue, exposureTime, iso, fNumber,
            focalLength, lensPosition, flashFired, gps?.latitude, gps?.longitude, gps?.altitude,
            fileSize, checksum, favorite, hidden, deleted?.epochNanoseconds, deleted?.utcOffsetSeconds,
            editRevision, clockTrust?.rawValue, dateShift.nanoseconds,
        ]
        return StatementArguments(values)
    }

    /// Decodes a row selected with `selectSQL`.
    init(row: Row) {
        id = row[0]
        path = row[1]
        created = WallTime(epochNanoseconds: row[2], utcOffsetSeconds: row[3])
        added = WallTime(epochNanoseconds: row[4], utcOffsetSeconds: row[5])
        modified = WallTime(epochNanoseconds: row[6], utcOffsetSeconds: row[7])
        cameraID = row[8]
        make = row[9]
        model = row[10]
        pixelWidth = row[11]
        pixelHeight = row[12]
        orientation = Orientation(rawValue: row[13]) ?? .up
        exposureTime = row[14]
        iso = row[15]
        fNumber = row[16]
        focalLength = row[17]
        lensPosition = row[18]
        flashFired = row[19]
        if let latitude: Double = row[20], let longitude: Double = row[21] {
            gps = GPSFix(latitude: latitude, longitude: longitude, altitude: row[22])
        } else {
            gps = nil
        }
        fileSize = row[23]
        checksum = row[24]
        favorite = row[25]
        hidden = row[26]
        if let deletedNs: Int64 = row[27] {
            deleted = WallTime(epochNanoseconds: deletedNs, utcOffsetSeconds: row[28] ?? 0)
        } else {
            deleted = nil
        }
        editRevision = row[29]
        clockTrust = (row[30] as String?).flatMap(ClockTrust.init(rawValue:))
        dateShift = .nanoseconds(row[31] as Int64)
    }
}
