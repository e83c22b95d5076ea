// Reads PhotoMetadata back from the EXIF of any JPEG, ours or imported.

import CExif
import PinholeCore

/// Reads EXIF metadata with libexif.
public enum ExifReader {
    /// The metadata of `jpeg`. The stored pixel size always comes from the frame header (SOF),
    /// which is the truth even when EXIF PixelX/YDimension is missing or stale. A JPEG
    /// without EXIF gives metadata with only the size and `.up` orientation.
    /// `cameraID` is not stored in EXIF and is always nil.
    /// - Throws: `ImagingError.notJPEG`, `.truncatedJPEG`, `.malformedJPEG` for a bad JPEG
    ///   header, `.malformedEXIF` for an EXIF block whose TIFF header is invalid.
    public static func read(jpeg: [UInt8]) throws -> PhotoMetadata {
        let layout = try JPEGLayout(jpeg)
        var metadata = PhotoMetadata(pixelWidth: layout.width, pixelHeight: layout.height)
        guard let segment = layout.exifSegment(in: jpeg) else { return metadata }
        let entries = try ExifEntries(payload: Array(jpeg[segment.payload]))
        fill(&metadata, from: entries)
        return metadata
    }

    /// The IFD1 thumbnail JPEG embedded in `jpeg`, if any.
    public static func thumbnail(jpeg: [UInt8]) throws -> [UInt8]? {
        let layout = try JPEGLayout(jpeg)
        guard let segment = layout.exifSegment(in: jpeg) else { return nil }
        return try ExifEntries(payload: Array(jpeg[segment.payload])).thumbnail
    }

    static func fill(_ m: inout PhotoMetadata, from e: ExifEntries) {
        m.make = e.string(.ifd0, ExifTagID.make)
        m.model = e.string(.ifd0, ExifTagID.model)
        m.software = e.string(.ifd0, ExifTagID.software)
        m.orientation = e.integer(.ifd0, ExifTagID.orientation).flatMap(Orientation.init(rawValue:)) ?? .up
        m.captureTime = captureTime(e)
        m.exposureTime = positive(e.real(.exif, ExifTagID.exposureTime))
        m.fNumber = positive(e.real(.exif, ExifTagID.fNumber))
        m.focalLength = positive(e.real(.exif, ExifTagID.focalLength))
        m.iso = e.integer(.exif, ExifTagID.photographicSensitivity).flatMap { $0 > 0 ? $0 : nil }
        m.exposureBias = e.real(.exif, ExifTagID.exposureBiasValue)
        if let mode = e.integer(.exif, ExifTagID.exposureMode) {
            m.manualExposure = mode == 1
        } else if let program = e.integer(.exif, ExifTagID.exposureProgram), program != 0 {
            m.manualExposure = program == 1
        }
        if let code = e.integer(.exif, ExifTagID.meteringMode), code != 0 {
            m.metering = MeteringCode.names[code] ?? "other"
        }
        if let flash = e.integer(.exif, ExifTagID.flash), flash & 0x20 == 0 {
            m.flashFired = flash & 1 == 1
            switch (flash >> 3) & 3 {
            case 1: m.flashMode = .on
            case 2: m.flashMode = .off
            case 3: m.flashMode = .auto
            default: m.flashMode = nil
            }
        }
        if let wb = e.integer(.exif, ExifTagID.whiteBalance) { m.manualWhiteBalance = wb == 1 }
        if let distance = e.rationals(.exif, ExifTagID.subjectDistance)?.first, distance.numerator != 0,
            distance.denominator != 0
        {
            m.lensPosition =
                distance.numerator == Int64(UInt32.max)
                ? 0
                : Double(distance.denominator) / Double(distance.numerator)
            if m.lensPosition! < 0 { m.lensPosition = nil }
        }
        m.lensModel = e.string(.exif, ExifTagID.lensModel)
        m.serialNumber = e.string(.exif, ExifTagID.bodySerialNumber)
        m.gps = gps(e)
        if var fix = m.gps { readGPSDetails(&fix, e); m.gps = fix }
        let comment = PinholeComment.read(e.raw(.exif, ExifTagID.userComment, [EXIF_FORMAT_UNDEFINED])?.bytes)
        m.clockTrust = comment?.clockTrust
        m.pressToExposure = comment?.pressToExposure
        m.wakeCost = comment?.wakeCost
        m.digitalZoom = e.real(.exif, ExifTagID.digitalZoomRatio).flatMap {
            $0.isFinite && $0 >= 1 ? $0 : nil
        }
        m.timeZoneKnown = e.string(.exif, ExifTagID.offsetTimeOriginal) != nil || m.captureTime == nil
    }

    private static func positive(_ value: Double?) -> Double? {
        guard let value, value > 0, value.isFinite else { return nil }
        return value
    }

    private static func captureTime(_ e: ExifEntries) -> WallTime? {
        let candidates: [(UInt16, UInt16, UInt16)] = [
            (ExifTagID.dateTimeOriginal, ExifTagID.offsetTimeOriginal, ExifTagID.subSecTimeOriginal),
            (ExifTagID.dateTimeDigitized, ExifTagID.offsetTimeDigitized, ExifTagID.subSecTimeDigitized),
        ]
        for (dateTag, offsetTag, subsecTag) in candidates {
            guard let text = e.string(.exif, dateTag), let local = ExifDate.parse(text) else { continue }
            let offset = e.string(.exif, offsetTag).flatMap(ExifDate.parseOffset) ?? 0
            let nanos = e.string(.exif, subsecTag).flatMap(ExifDate.parseSubSeconds) ?? 0
            return WallTime(
                secondsSince1970: local - Int64(offset), nanoseconds: nanos,
                utcOffsetSeconds: offset)
        }
        guard let text = e.string(.ifd0, ExifTagID.dateTime), let local = ExifDate.parse(text) else {
            return nil
        }
        let offset = e.string(.exif, ExifTagID.offsetTime).flatMap(ExifDate.parseOffset) ?? 0
        return WallTime(secondsSince1970: local - Int64(offset), utcOffsetSeconds: offset)
    }

    private static func gps(_ e: ExifEntries) -> GPSFix? {
        guard let lat = e.rationals(.gps, ExifTagID.gpsLatitude, count: 3),
            let lon = e.rationals(.gps, ExifTagID.gpsLongitude, count: 3),
            let latitude = degrees(lat), let longitude = degrees(lon),
            latitude <= 90, longitude <= 180
        else { return nil }
        let south = e.string(.gps, ExifTagID.gpsLatitudeRef)?.uppercased() == "S"
        let west = e.string(.gps, ExifTagID.gpsLongitudeRef)?.uppercased() == "W"
        var fix = GPSFix(latitude: south ? -latitude : latitude, longitude: west ? -longitude : longitude)
        if let altitude = e.real(.gps, ExifTagID.gpsAltitude), altitude.isFinite {
            fix.altitude = e.integer(.gps, ExifTagID.gpsAltitudeRef) == 1 ? -altitude : altitude
        }
        return fix
    }

    private static func degrees(_ dms: [Rational]) -> Double? {
        guard let d = dms[0].value, let m = dms[1].value, let s = dms[2].value,
            d >= 0, m >= 0, s >= 0
        else { return nil }
        let value = d + m / 60 + s / 3600
        return value.isFinite ? value : nil
    }
}
