// Numeric EXIF tag identifiers Pinhole writes and reads (EXIF 2.32 / TIFF 6.0).

/// EXIF tag numbers, grouped by the IFD they belong in.
enum ExifTagID {
    // IFD0 and IFD1
    static let compression: UInt16 = 0x0103
    static let make: UInt16 = 0x010F
    static let model: UInt16 = 0x0110
    static let orientation: UInt16 = 0x0112
    static let xResolution: UInt16 = 0x011A
    static let yResolution: UInt16 = 0x011B
    static let resolutionUnit: UInt16 = 0x0128
    static let software: UInt16 = 0x0131
    static let dateTime: UInt16 = 0x0132
    static let yCbCrPositioning: UInt16 = 0x0213
    // Exif IFD
    static let exposureTime: UInt16 = 0x829A
    static let fNumber: UInt16 = 0x829D
    static let exposureProgram: UInt16 = 0x8822
    static let photographicSensitivity: UInt16 = 0x8827
    static let sensitivityType: UInt16 = 0x8830
    static let exifVersion: UInt16 = 0x9000
    static let dateTimeOriginal: UInt16 = 0x9003
    static let dateTimeDigitized: UInt16 = 0x9004
    static let offsetTime: UInt16 = 0x9010
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let offsetTimeDigitized: UInt16 = 0x9012
    static let componentsConfiguration: UInt16 = 0x9101
    static let exposureBiasValue: UInt16 = 0x9204
    static let subjectDistance: UInt16 = 0x9206
    static let meteringMode: UInt16 = 0x9207
    static let flash: UInt16 = 0x9209
    static let focalLength: UInt16 = 0x920A
    static let userComment: UInt16 = 0x9286
    static let makerNote: UInt16 = 0x927C
    static let subSecTime: UInt16 = 0x9290
    static let subSecTimeOriginal: UInt16 = 0x9291
    static let subSecTimeDigitized: UInt16 = 0x9292
    static let flashpixVersion: UInt16 = 0xA000
    static let colorSpace: UInt16 = 0xA001
    static let pixelXDimension: UInt16 = 0xA002
    static let pixelYDimension: UInt16 = 0xA003
    static let exposureMode: UInt16 = 0xA402
    static let whiteBalance: UInt16 = 0xA403
    static let bodySerialNumber: UInt16 = 0xA431
    static let digitalZoomRatio: UInt16 = 0xA404
    static let lensModel: UInt16 = 0xA434
    // GPS IFD
    static let gpsVersionID: UInt16 = 0x0000
    static let gpsLatitudeRef: UInt16 = 0x0001
    static let gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003
    static let gpsLongitude: UInt16 = 0x0004
    static let gpsAltitudeRef: UInt16 = 0x0005
    static let gpsAltitude: UInt16 = 0x0006
    static let gpsTimeStamp: UInt16 = 0x0007
    static let gpsSatellites: UInt16 = 0x0008
    static let gpsStatus: UInt16 = 0x0009
    static let gpsMeasureMode: UInt16 = 0x000A
    static let gpsDOP: UInt16 = 0x000B
    static let gpsSpeedRef: UInt16 = 0x000C
    static let gpsSpeed: UInt16 = 0x000D
    static let gpsTrackRef: UInt16 = 0x000E
    static let gpsTrack: UInt16 = 0x000F
    static let gpsMapDatum: UInt16 = 0x0012
    static let gpsDateStamp: UInt16 = 0x001D
}

/// EXIF MeteringMode values and Pinhole's metering names.
enum MeteringCode {
    static let names: [Int: String] = [
        1: "average", 2: "centre", 3: "spot", 4: "multispot", 5: "matrix",
        6: "partial",
    ]

    /// The EXIF code for a metering name (255 "other" when unknown).
    static func code(for name: String) -> Int {
        let lower = name.lowercased()
        if lower == "center" || lower == "centre-weighted" || lower == "center-weighted" { return 2 }
        if lower == "pattern" || lower == "evaluative" { return 5 }
        return names.first { $0.value == lower }?.key ?? 255
    }
}
