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

    /// `SELECT asset.* FROM asset`: whole assets, for `Asset.fetchAll`.
    static let selectSQL = "SELECT asset.* FROM asset"

    /// Decodes an asset from a row of the `asset` table by column name (extra columns are
    /// ignored, so rows of joins and of later schema versions decode alike). Throws a
    /// `RowDecodingError` naming the column when a stored value has the wrong type.
    ///
    /// Looks the names up for this row; to decode many rows of one statement, resolve the
    /// names once (`all(in:arguments:)`, `init(row:columns:)`).
    public init(row: Row) throws {
        try self.init(row: row, columns: AssetColumnPositions(columnNames: row.columnNames))
    }

    /// Decodes an asset from a row whose column positions were resolved by name beforehand
    /// (for every row of the same statement).
    init(row: Row, columns: AssetColumnPositions) throws {
        typealias C = AssetColumn
        let p = columns
        id = try row.decode(C.id, in: p)
        path = try row.decode(C.path, in: p)
        created = WallTime(
            epochNanoseconds: try row.decode(C.createdNs, in: p),
            utcOffsetSeconds: try row.decode(C.createdOffset, in: p))
        added = WallTime(
            epochNanoseconds: try row.decode(C.addedNs, in: p),
            utcOffsetSeconds: try row.decode(C.addedOffset, in: p))
        modified = WallTime(
            epochNanoseconds: try row.decode(C.modifiedNs, in: p),
            utcOffsetSeconds: try row.decode(C.modifiedOffset, in: p))
        cameraID = try row.decode(C.cameraID, in: p)
        make = try row.decode(C.make, in: p)
        model = try row.decode(C.model, in: p)
        pixelWidth = try row.decode(C.width, in: p)
        pixelHeight = try row.decode(C.height, in: p)
        orientation = Orientation(rawValue: try row.decode(C.orientation, in: p)) ?? .up
        exposureTime = try row.decode(C.exposureTime, in: p)
        iso = try row.decode(C.iso, in: p)
        fNumber = try row.decode(C.fNumber, in: p)
        focalLength = try row.decode(C.focalLength, in: p)
        lensPosition = try row.decode(C.lensPosition, in: p)
        flashFired = try row.decode(C.flashFired, in: p)
        let latitude: Double? = try row.decode(C.latitude, in: p)
        let longitude: Double? = try row.decode(C.longitude, in: p)
        if let latitude, let longitude {
            gps = GPSFix(
                latitude: latitude, longitude: longitude, altitude: try row.decode(C.altitude, in: p))
        } else {
            gps = nil
        }
        fileSize = try row.decode(C.fileSize, in: p)
        checksum = try row.decode(C.checksum, in: p)
        favorite = try row.decode(C.favorite, in: p)
        hidden = try row.decode(C.hidden, in: p)
        if let deletedNs: Int64 = try row.decode(C.deletedNs, in: p) {
            let offset: Int32? = try row.decode(C.deletedOffset, in: p)
            deleted = WallTime(epochNanoseconds: deletedNs, utcOffsetSeconds: offset ?? 0)
        } else {
            deleted = nil
        }
        editRevision = try row.decode(C.editRevision, in: p)
        let trust: String? = try row.decode(C.clockTrust, in: p)
        clockTrust = trust.flatMap(ClockTrust.init(rawValue:))
        dateShift = .nanoseconds(try row.decode(C.dateShiftNs, in: p) as Int64)
        let lag: Int64? = try row.decode(C.exposureLagNs, in: p)
        pressToExposure = lag.map { .nanoseconds($0) }
        let wake: Int64? = try row.decode(C.wakeCostNs, in: p)
        wakeCost = wake.map { .nanoseconds($0) }
        let media: String? = try row.decode(C.mediaType, in: p)
        mediaType = media.flatMap(MediaType.init(rawValue:)) ?? .photo
        let durationUs: Int64? = try row.decode(C.durationUs, in: p)
        duration = durationUs.map { .microseconds($0) }
        frameRate = try row.decode(C.frameRate, in: p)
        codec = try row.decode(C.codec, in: p)
        let triggerUs: Int64? = try row.decode(C.triggerUs, in: p)
        triggerOffset = triggerUs.map { .microseconds($0) }
    }

    /// All assets of `statement`'s rows, their column positions resolved once for the statement
    /// (`capacity`: how many rows are expected, when known).
    static func all(in statement: Statement, arguments: StatementArguments, capacity: Int = 0) throws
        -> [Asset]
    {
        var assets: [Asset] = []
        assets.reserveCapacity(capacity)
        try forEach(in: statement, arguments: arguments) { assets.append($0) }
        return assets
    }

    /// Calls `body` with the asset of each of `statement`'s rows in turn, one row in memory at
    /// a time (a cursor), its column positions resolved once for the statement.
    static func forEach(
        in statement: Statement, arguments: StatementArguments, _ body: (Asset) throws -> Void
    ) throws {
        let columns = AssetColumnPositions(columnNames: statement.columnNames)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() { try body(try Asset(row: row, columns: columns)) }
    }

    /// Encodes every column of the asset by name (what `insert` writes).
    public func encode(to container: inout PersistenceContainer) {
        typealias C = AssetColumn
        container[C.id.name] = id
        container[C.path.name] = path
        container[C.createdNs.name] = created.epochNanoseconds
        container[C.createdOffset.name] = created.utcOffsetSeconds
        container[C.addedNs.name] = added.epochNanoseconds
        container[C.addedOffset.name] = added.utcOffsetSeconds
        container[C.modifiedNs.name] = modified.epochNanoseconds
        container[C.modifiedOffset.name] = modified.utcOffsetSeconds
        container[C.cameraID.name] = cameraID
        container[C.make.name] = make
        container[C.model.name] = model
        container[C.width.name] = pixelWidth
        container[C.height.name] = pixelHeight
        container[C.orientation.name] = orientation.rawValue
        container[C.exposureTime.name] = exposureTime
        container[C.iso.name] = iso
        container[C.fNumber.name] = fNumber
        container[C.focalLength.name] = focalLength
        container[C.lensPosition.name] = lensPosition
        container[C.flashFired.name] = flashFired
        container[C.latitude.name] = gps?.latitude
        container[C.longitude.name] = gps?.longitude
        container[C.altitude.name] = gps?.altitude
        container[C.fileSize.name] = fileSize
        container[C.checksum.name] = checksum
        container[C.favorite.name] = favorite
        container[C.hidden.name] = hidden
        container[C.deletedNs.name] = deleted?.epochNanoseconds
        container[C.deletedOffset.name] = deleted?.utcOffsetSeconds
        container[C.editRevision.name] = editRevision
        container[C.clockTrust.name] = clockTrust?.rawValue
        container[C.dateShiftNs.name] = dateShift.nanoseconds
        container[C.exposureLagNs.name] = pressToExposure?.nanoseconds
        container[C.wakeCostNs.name] = wakeCost?.nanoseconds
        container[C.mediaType.name] = mediaType.rawValue
        container[C.durationUs.name] = duration.map { $0.nanoseconds / 1000 }
        container[C.frameRate.name] = frameRate
        container[C.codec.name] = codec
        container[C.triggerUs.name] = triggerOffset.map { $0.nanoseconds / 1000 }
    }
}
