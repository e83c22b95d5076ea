// The columns of the `asset` table by name, and where they sit in one statement's rows (looked up once).

import GRDB

/// A column of the `asset` table.
enum AssetColumn: Int, CaseIterable {
    case id, path, createdNs, createdOffset, addedNs, addedOffset, modifiedNs, modifiedOffset
    case cameraID, make, model, width, height, orientation
    case exposureTime, iso, fNumber, focalLength, lensPosition, flashFired
    case latitude, longitude, altitude, fileSize, checksum, favorite, hidden
    case deletedNs, deletedOffset, editRevision, clockTrust, dateShiftNs, exposureLagNs, wakeCostNs
    case mediaType, durationUs, frameRate, codec, triggerUs

    /// The column's name in the database.
    var name: String {
        switch self {
        case .id: "id"
        case .path: "path"
        case .createdNs: "created_ns"
        case .createdOffset: "created_offset"
        case .addedNs: "added_ns"
        case .addedOffset: "added_offset"
        case .modifiedNs: "modified_ns"
        case .modifiedOffset: "modified_offset"
        case .cameraID: "camera_id"
        case .make: "make"
        case .model: "model"
        case .width: "width"
        case .height: "height"
        case .orientation: "orientation"
        case .exposureTime: "exposure_time"
        case .iso: "iso"
        case .fNumber: "f_number"
        case .focalLength: "focal_length"
        case .lensPosition: "lens_position"
        case .flashFired: "flash_fired"
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .altitude: "altitude"
        case .fileSize: "file_size"
        case .checksum: "checksum"
        case .favorite: "favorite"
        case .hidden: "hidden"
        case .deletedNs: "deleted_ns"
        case .deletedOffset: "deleted_offset"
        case .editRevision: "edit_revision"
        case .clockTrust: "clock_trust"
        case .dateShiftNs: "date_shift_ns"
        case .exposureLagNs: "exposure_lag_ns"
        case .wakeCostNs: "wake_cost_ns"
        case .mediaType: "media_type"
        case .durationUs: "duration_us"
        case .frameRate: "frame_rate"
        case .codec: "codec"
        case .triggerUs: "trigger_us"
        }
    }
}

/// Where each `asset` column sits in the rows of one statement, found by name once (the
/// leftmost column of that name, case-insensitively, as GRDB finds it) so that every row of
/// the statement decodes by index instead of looking 34 names up again.
struct AssetColumnPositions {
    /// Index of each column in the rows, by `AssetColumn.rawValue`; -1 where the rows lack it.
    private let indexes: [Int]

    /// The positions of the asset columns among `columnNames` (a statement's or a row's).
    init(columnNames: some Collection<String>) {
        // `SELECT asset.*` (every query of the library) lists the table's columns in order:
        // then the positions are the column order, found without building a dictionary.
        if columnNames.count >= AssetColumn.allCases.count
            && zip(AssetColumn.allCases, columnNames).allSatisfy({ $0.name == $1 })
        {
            indexes = Array(AssetColumn.allCases.indices)
            return
        }
        var byName: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where byName[name.lowercased()] == nil {
            byName[name.lowercased()] = index
        }
        indexes = AssetColumn.allCases.map { byName[$0.name] ?? -1 }
    }

    /// The index of `column` in the rows, or nil when the rows lack it.
    subscript(_ column: AssetColumn) -> Int? {
        let index = indexes[column.rawValue]
        return index >= 0 ? index : nil
    }
}

extension Row {
    /// The value of `column` at its resolved position. A column the row lacks decodes as GRDB
    /// decodes a missing column by name: nil for an optional, else `RowDecodingError`.
    @inline(__always)
    func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ column: AssetColumn, in positions: AssetColumnPositions
    ) throws -> Value {
        guard let index = positions[column] else { return try decode(forColumn: column.name) }
        return try decode(atIndex: index)
    }
}
