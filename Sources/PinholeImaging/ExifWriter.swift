// Writes PhotoMetadata as an EXIF APP1 segment (IFD0, Exif, GPS, IFD1 thumbnail) into a JPEG.

import PinholeCore

/// Writes EXIF with libexif.
public enum ExifWriter {
    /// Largest APP1 payload: the segment length field is 16 bits and counts itself.
    public static let maxAPP1Payload = 65_533

    /// Returns `jpeg` with an EXIF APP1 segment right after SOI holding `metadata` and, when
    /// given, `thumbnail` (a small JPEG) in IFD1. Any existing EXIF APP1 and JFIF APP0 are
    /// replaced; every other segment and the image data are kept byte for byte.
    /// - Throws: `ImagingError.notJPEG`/`.truncatedJPEG`/`.malformedJPEG` for a bad `jpeg`,
    ///   `.exifTooLarge` when the block would exceed 64 KB.
    public static func embed(_ metadata: PhotoMetadata, thumbnail: [UInt8]?, into jpeg: [UInt8]) throws
        -> [UInt8]
    {
        let layout = try JPEGLayout(jpeg)
        let payload = try exifPayload(metadata, thumbnail: thumbnail)
        var output: [UInt8] = []
        output.reserveCapacity(jpeg.count + payload.count + 4)
        output.append(contentsOf: [
            0xFF, 0xD8, 0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF),
        ])
        output.append(contentsOf: payload)
        var copyFrom = 2
        for segment in layout.segments where isReplaced(segment, in: jpeg) {
            output.append(contentsOf: jpeg[copyFrom..<segment.start])
            copyFrom = segment.end
        }
        output.append(contentsOf: jpeg[copyFrom...])
        return output
    }

    /// The APP1 payload ("Exif\0\0" + TIFF) for `metadata`.
    /// - Throws: `ImagingError.exifTooLarge` when it would exceed 64 KB.
    public static func exifPayload(_ metadata: PhotoMetadata, thumbnail: [UInt8]?) throws -> [UInt8] {
        let builder = try ExifBuilder()
        try writeIFD0(metadata, builder)
        try writeExifIFD(metadata, builder)
        if let gps = metadata.gps { try writeGPS(gps, builder) }
        if let thumbnail, !thumbnail.isEmpty {
            try builder.short(.ifd1, ExifTagID.compression, 6)
            try writeResolution(.ifd1, builder)
            try builder.setThumbnail(thumbnail)
        }
        let payload = try builder.save()
        guard payload.count <= maxAPP1Payload else { throw ImagingError.exifTooLarge(bytes: payload.count) }
        return payload
    }

    private static func isReplaced(_ segment: JPEGSegment, in jpeg: [UInt8]) -> Bool {
        if segment.marker == 0xE1 {
            return segment.payload.count >= 6
                && Array(jpeg[segment.payload.prefix(6)]) == JPEGLayout.exifHeader
        }
        if segment.marker == 0xE0 {
            return segment.payload.count >= 5
                && Array(jpeg[segment.payload.prefix(5)]) == [0x4A, 0x46, 0x49, 0x46, 0]
        }
        return false
    }

    private static func writeResolution(_ ifd: ExifIFD, _ b: ExifBuilder) throws {
        try b.rational(ifd, ExifTagID.xResolution, [Rational(numerator: 72, denominator: 1)])
        try b.rational(ifd, ExifTagID.yResolution, [Rational(numerator: 72, denominator: 1)])
        try b.short(ifd, ExifTagID.resolutionUnit, 2)
    }

    private static func writeIFD0(_ m: PhotoMetadata, _ b: ExifBuilder) throws {
        try b.ascii(.ifd0, ExifTagID.make, m.make)
        try b.ascii(.ifd0, ExifTagID.model, m.model)
        try b.short(.ifd0, ExifTagID.orientation, m.orientation.rawValue)
        try writeResolution(.ifd0, b)
        try b.ascii(.ifd0, ExifTagID.software, m.software)
        try b.ascii(.ifd0, ExifTagID.dateTime, m.captureTime?.exifDateTime)
        try b.short(.ifd0, ExifTagID.yCbCrPositioning, 1)
    }

    private static func writeExifIFD(_ m: PhotoMetadata, _ b: ExifBuilder) throws {
        try b.undefined(.exif, ExifTagID.exifVersion, Array("0232".utf8))
        try b.undefined(.exif, ExifTagID.flashpixVersion, Array("0100".utf8))
        try b.undefined(.exif, ExifTagID.componentsConfiguration, [1, 2, 3, 0])
        try b.short(.exif, ExifTagID.colorSpace, 1)
        try b.long(.exif, ExifTagID.pixelXDimension, m.pixelWidth)
        try b.long(.exif, ExifTagID.pixelYDimension, m.pixelHeight)
        if let time = m.captureTime {
            let date = time.exifDateTime, offset = time.exifOffset, subsec = subSecondDigits(time.nanoseconds)
            try b.ascii(.exif, ExifTagID.dateTimeOriginal, date)
            try b.ascii(.exif, ExifTagID.dateTimeDigitized, date)
            if m.timeZoneKnown {
                try b.ascii(.exif, ExifTagID.offsetTime, offset)
                try b.ascii(.exif, ExifTagID.offsetTimeOriginal, offset)
                try b.ascii(.exif, ExifTagID.offsetTimeDigitized, offset)
            }
            try b.ascii(.exif, ExifTagID.subSecTime, subsec)
            try b.ascii(.exif, ExifTagID.subSecTimeOriginal, subsec)
            try b.ascii(.exif, ExifTagID.subSecTimeDigitized, subsec)
        }
        if let t = m.exposureTime, t > 0 {
            try b.rational(.exif, ExifTagID.exposureTime, [Rational.approximating(t)])
        }
        if let f = m.fNumber, f > 0 {
            try b.rational(.exif, ExifTagID.fNumber, [Rational.approximating(f, maxDenominator: 1000)])
        }
        if let manual = m.manualExposure {
            try b.short(.exif, ExifTagID.exposureProgram, manual ? 1 : 2)
            try b.short(.exif, ExifTagID.exposureMode, manual ? 1 : 0)
        }
        if let iso = m.iso, iso > 0 {
            try b.short(.exif, ExifTagID.photographicSensitivity, min(iso, 65_535))
            try b.short(.exif, ExifTagID.sensitivityType, 3)  // ISO speed
        }
        if let bias = m.exposureBias, bias.isFinite {
            try b.srational(
                .exif, ExifTagID.exposureBiasValue,
                Rational.approximating(bias, maxDenominator: 1000, numeratorLimit: Int64(Int32.max)))
        }
        if let metering = m.metering {
            try b.short(.exif, ExifTagID.meteringMode, MeteringCode.code(for: metering))
        }
        try b.short(.exif, ExifTagID.flash, flashCode(fired: m.flashFired, mode: m.flashMode))
        if let focal = m.focalLength, focal > 0 {
            try b.rational(
                .exif, ExifTagID.focalLength, [Rational.approximating(focal, maxDenominator: 1000)])
        }
        if let dioptres = m.lensPosition, dioptres >= 0, dioptres.isFinite {
            // SubjectDistance is 1/dioptres metres; 0xFFFFFFFF/1 means infinity.
            let distance =
                dioptres == 0
                ? Rational(numerator: Int64(UInt32.max), denominator: 1)
                : Rational.approximating(1 / dioptres, numeratorLimit: Int64(UInt32.max) - 1)
            try b.rational(.exif, ExifTagID.subjectDistance, [distance])
        }
        if let manual = m.manualWhiteBalance { try b.short(.exif, ExifTagID.whiteBalance, manual ? 1 : 0) }
        try b.ascii(.exif, ExifTagID.bodySerialNumber, m.serialNumber)
        try b.ascii(.exif, ExifTagID.lensModel, m.lensModel)
        if let zoom = m.digitalZoom, zoom.isFinite, zoom >= 1 {
            try b.rational(
                .exif, ExifTagID.digitalZoomRatio, [Rational.approximating(zoom, maxDenominator: 1000)])
        }
        let comment = PinholeComment(
            clockTrust: m.clockTrust, pressToExposure: m.pressToExposure, wakeCost: m.wakeCost)
        if !comment.isEmpty { try b.undefined(.exif, ExifTagID.userComment, comment.userComment) }
        if let note = m.makerNote { try b.undefined(.exif, ExifTagID.makerNote, note) }
    }

    private static func writeGPS(_ gps: GPSFix, _ b: ExifBuilder) throws {
        guard gps.latitude.isFinite, gps.longitude.isFinite, abs(gps.latitude) <= 90,
            abs(gps.longitude) <= 180
        else {
            throw ImagingError.invalidParameter(
                detail: "GPS fix \(gps.latitude), \(gps.longitude) is not on Earth")
        }
        try b.byte(.gps, ExifTagID.gpsVersionID, [2, 3, 0, 0])
        try b.ascii(.gps, ExifTagID.gpsLatitudeRef, gps.latitude < 0 ? "S" : "N")
        try b.rational(.gps, ExifTagID.gpsLatitude, degreesMinutesSeconds(abs(gps.latitude)))
        try b.ascii(.gps, ExifTagID.gpsLongitudeRef, gps.longitude < 0 ? "W" : "E")
        try b.rational(.gps, ExifTagID.gpsLongitude, degreesMinutesSeconds(abs(gps.longitude)))
        if let altitude = gps.altitude, altitude.isFinite {
            try b.byte(.gps, ExifTagID.gpsAltitudeRef, [altitude < 0 ? 1 : 0])
            try b.rational(
                .gps, ExifTagID.gpsAltitude, [Rational.approximating(abs(altitude), maxDenominator: 1000)])
        }
        try writeGPSDetails(gps, b)
    }

    /// Degrees, minutes and seconds (to 1/10000 s) for a non-negative angle.
    static func degreesMinutesSeconds(_ angle: Double) -> [Rational] {
        let totalTenThousandths = Int64((angle * 3600 * 10_000).rounded())
        let degrees = totalTenThousandths / (3600 * 10_000)
        let minutes = totalTenThousandths / (60 * 10_000) % 60
        let seconds = totalTenThousandths % (60 * 10_000)
        return [
            Rational(numerator: degrees, denominator: 1), Rational(numerator: minutes, denominator: 1),
            Rational(numerator: seconds, denominator: 10_000),
        ]
    }

    /// EXIF Flash: bit 0 fired, bits 3–4 mode (1 on, 2 off, 3 auto), bit 5 no flash function.
    static func flashCode(fired: Bool?, mode: FlashMode?) -> Int {
        guard let fired else { return 0x20 }
        let modeBits: Int
        switch mode {
        case .on: modeBits = 1
        case .off: modeBits = 2
        case .auto: modeBits = 3
        case nil: modeBits = 0
        }
        return (fired ? 1 : 0) | modeBits << 3
    }

    /// Sub-second digits: nanoseconds to at least three digits, trailing zeros dropped.
    static func subSecondDigits(_ nanoseconds: Int32) -> String {
        let padded = String(String(max(0, nanoseconds) + 1_000_000_000).dropFirst())
        var digits = Substring(padded)
        while digits.count > 3 && digits.last == "0" { digits = digits.dropLast() }
        return String(digits)
    }
}
