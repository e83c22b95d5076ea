// The library benchmarks' reference record: every column of an `asset` row, decoded the plain GRDB way.

import GRDB

/// Every column of the `asset` table as a plain GRDB record, decoded by column index in the
/// table's order (what `SELECT asset.*` returns): the reference the library's `Asset`
/// decoding is compared with. It reads the same columns into Swift values of the same types
/// and builds nothing more.
struct ReferenceAssetRow: FetchableRecord {
    var id: String
    var path: String
    var createdNs: Int64
    var createdOffset: Int32
    var addedNs: Int64
    var addedOffset: Int32
    var modifiedNs: Int64
    var modifiedOffset: Int32
    var cameraID: String?
    var make: String?
    var model: String?
    var width: Int
    var height: Int
    var orientation: Int
    var exposureTime: Double?
    var iso: Int?
    var fNumber: Double?
    var focalLength: Double?
    var lensPosition: Double?
    var flashFired: Bool?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var fileSize: Int64
    var checksum: String
    var favorite: Bool
    var hidden: Bool
    var deletedNs: Int64?
    var deletedOffset: Int32?
    var editRevision: Int
    var clockTrust: String?
    var dateShiftNs: Int64
    var exposureLagNs: Int64?
    var wakeCostNs: Int64?

    init(row: Row) throws {
        id = try row.decode(atIndex: 0)
        path = try row.decode(atIndex: 1)
        createdNs = try row.decode(atIndex: 2)
        createdOffset = try row.decode(atIndex: 3)
        addedNs = try row.decode(atIndex: 4)
        addedOffset = try row.decode(atIndex: 5)
        modifiedNs = try row.decode(atIndex: 6)
        modifiedOffset = try row.decode(atIndex: 7)
        cameraID = try row.decode(atIndex: 8)
        make = try row.decode(atIndex: 9)
        model = try row.decode(atIndex: 10)
        width = try row.decode(atIndex: 11)
        height = try row.decode(atIndex: 12)
        orientation = try row.decode(atIndex: 13)
        exposureTime = try row.decode(atIndex: 14)
        iso = try row.decode(atIndex: 15)
        fNumber = try row.decode(atIndex: 16)
        focalLength = try row.decode(atIndex: 17)
        lensPosition = try row.decode(atIndex: 18)
        flashFired = try row.decode(atIndex: 19)
        latitude = try row.decode(atIndex: 20)
        longitude = try row.decode(atIndex: 21)
        altitude = try row.decode(atIndex: 22)
        fileSize = try row.decode(atIndex: 23)
        checksum = try row.decode(atIndex: 24)
        favorite = try row.decode(atIndex: 25)
        hidden = try row.decode(atIndex: 26)
        deletedNs = try row.decode(atIndex: 27)
        deletedOffset = try row.decode(atIndex: 28)
        editRevision = try row.decode(atIndex: 29)
        clockTrust = try row.decode(atIndex: 30)
        dateShiftNs = try row.decode(atIndex: 31)
        exposureLagNs = try row.decode(atIndex: 32)
        wakeCostNs = try row.decode(atIndex: 33)
    }

    /// The column names the indexes above stand for, in order (checked once against the
    /// statement, so the reference cannot silently decode the wrong columns).
    static let columnNames = [
        "id", "path", "created_ns", "created_offset", "added_ns", "added_offset", "modified_ns",
        "modified_offset", "camera_id", "make", "model", "width", "height", "orientation", "exposure_time",
        "iso",
        "f_number", "focal_length", "lens_position", "flash_fired", "latitude", "longitude", "altitude",
        "file_size", "checksum", "favorite", "hidden", "deleted_ns", "deleted_offset", "edit_revision",
        "clock_trust", "date_shift_ns", "exposure_lag_ns", "wake_cost_ns",
    ]
}
