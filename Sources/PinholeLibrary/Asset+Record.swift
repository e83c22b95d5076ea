// `Asset` as a GRDB record of the `asset` table, decoded and encoded by column name.

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
        if nanos < 0 {
            nanos += 1_000_000_000
            seconds -= 1
        }
        self.init(secondsSince1970: seconds, nanoseconds: Int32(nanos), utcOffsetSeconds: utcOffsetSeconds)
    }
}

extension Asset: FetchableRecord, PersistableRecord {
    /// The table of assets.
    public static let databaseTableName = "asset"

    /// The column names of the `asset` table.
    enum ColumnName {
        static let id = "id"
        static let path = "path"
        static let createdNs = "created_ns"
        static let createdOffset = "created_offset"
        static let addedNs = "added_ns"
        static let addedOffset = "added_offset"
        static let modifiedNs = "modified_ns"
        static let modifiedOffset = "modified_offset"
        static let cameraID = "camera_id"
        static let make = "make"
        static let model = "model"
        static let width = "width"
        static let height = "height"
        static let orientation = "orientation"
        static let exposureTime = "exposure_time"
        static let iso = "iso"
        static let fNumber = "f_number"
        static let focalLength = "focal_length"
        static let lensPosition = "lens_position"
        static let flashFired = "flash_fired"
        static let latitude = "latitude"
        static let longitude = "longitude"
        static let altitude = "altitude"
        static let fileSize = "file_size"
        static let checksum = "checksum"
        static let favorite = "favorite"
        static let hidden = "hidden"
        static let deletedNs = "deleted_ns"
        static let deletedOffset = "deleted_offset"
        static let editRevision = "edit_revision"
        static let clockTrust = "clock_trust"
        static let dateShiftNs = "date_shift_ns"
        static let exposureLagNs = "exposure_lag_ns"
        static let wakeCostNs = "wake_cost_ns"
    }

    /// `SELECT asset.* FROM asset`: whole assets, for `Asset.fetchAll`.
    static let selectSQL = "SELECT asset.* FROM asset"

    /// Decodes an asset from a row of the `asset` table by column name (extra columns are
    /// ignored, so rows of joins and of later schema versions decode alike). Throws a
    /// `RowDecodingError` naming the column when a stored value has the wrong type.
    public init(row: Row) throws {
        typealias C = ColumnName
        id = try row.decode(forColumn: C.id)
        path = try row.decode(forColumn: C.path)
        created = WallTime(
            epochNanoseconds: try row.decode(forColumn: C.createdNs),
            utcOffsetSeconds: try row.decode(forColumn: C.createdOffset))
        added = WallTime(
            epochNanoseconds: try row.decode(forColumn: C.addedNs),
            utcOffsetSeconds: try row.decode(forColumn: C.addedOffset))
        modified = WallTime(
            epochNanoseconds: try row.decode(forColumn: C.modifiedNs),
            utcOffsetSeconds: try row.decode(forColumn: C.modifiedOffset))
        cameraID = try row.decode(forColumn: C.cameraID)
        make = try row.decode(forColumn: C.make)
        model = try row.decode(forColumn: C.model)
        pixelWidth = try row.decode(forColumn: C.width)
        pixelHeight = try row.decode(forColumn: C.height)
        orientation = Orientation(rawValue: try row.decode(forColumn: C.orientation)) ?? .up
        exposureTime = try row.decode(forColumn: C.exposureTime)
        iso = try row.decode(forColumn: C.iso)
        fNumber = try row.decode(forColumn: C.fNumber)
        focalLength = try row.decode(forColumn: C.focalLength)
        lensPosition = try row.decode(forColumn: C.lensPosition)
        flashFired = try row.decode(forColumn: C.flashFired)
        let latitude: Double? = try row.decode(forColumn: C.latitude)
        let longitude: Double? = try row.decode(forColumn: C.longitude)
        if let latitude, let longitude {
            gps = GPSFix(
                latitude: latitude, longitude: longitude, altitude: try row.decode(forColumn: C.altitude))
        } else {
            gps = nil
        }
        fileSize = try row.decode(forColumn: C.fileSize)
        checksum = try row.decode(forColumn: C.checksum)
        favorite = try row.decode(forColumn: C.favorite)
        hidden = try row.decode(forColumn: C.hidden)
        if let deletedNs: Int64 = try row.decode(forColumn: C.deletedNs) {
            let offset: Int32? = try row.decode(forColumn: C.deletedOffset)
            deleted = WallTime(epochNanoseconds: deletedNs, utcOffsetSeconds: offset ?? 0)
        } else {
            deleted = nil
        }
        editRevision = try row.decode(forColumn: C.editRevision)
        let trust: String? = try row.decode(forColumn: C.clockTrust)
        clockTrust = trust.flatMap(ClockTrust.init(rawValue:))
        dateShift = .nanoseconds(try row.decode(forColumn: C.dateShiftNs) as Int64)
        let lag: Int64? = try row.decode(forColumn: C.exposureLagNs)
        pressToExposure = lag.map { .nanoseconds($0) }
        let wake: Int64? = try row.decode(forColumn: C.wakeCostNs)
        wakeCost = wake.map { .nanoseconds($0) }
    }

    /// Encodes every column of the asset by name (what `insert` writes).
    public func encode(to container: inout PersistenceContainer) {
        typealias C = ColumnName
        container[C.id] = id
        container[C.path] = path
        container[C.createdNs] = created.epochNanoseconds
        container[C.createdOffset] = created.utcOffsetSeconds
        container[C.addedNs] = added.epochNanoseconds
        container[C.addedOffset] = added.utcOffsetSeconds
        container[C.modifiedNs] = modified.epochNanoseconds
        container[C.modifiedOffset] = modified.utcOffsetSeconds
        container[C.cameraID] = cameraID
        container[C.make] = make
        container[C.model] = model
        container[C.width] = pixelWidth
        container[C.height] = pixelHeight
        container[C.orientation] = orientation.rawValue
        container[C.exposureTime] = exposureTime
        container[C.iso] = iso
        container[C.fNumber] = fNumber
        container[C.focalLength] = focalLength
        container[C.lensPosition] = lensPosition
        container[C.flashFired] = flashFired
        container[C.latitude] = gps?.latitude
        container[C.longitude] = gps?.longitude
        container[C.altitude] = gps?.altitude
        container[C.fileSize] = fileSize
        container[C.checksum] = checksum
        container[C.favorite] = favorite
        container[C.hidden] = hidden
        container[C.deletedNs] = deleted?.epochNanoseconds
        container[C.deletedOffset] = deleted?.utcOffsetSeconds
        container[C.editRevision] = editRevision
        container[C.clockTrust] = clockTrust?.rawValue
        container[C.dateShiftNs] = dateShift.nanoseconds
        container[C.exposureLagNs] = pressToExposure?.nanoseconds
        container[C.wakeCostNs] = wakeCost?.nanoseconds
    }
}
