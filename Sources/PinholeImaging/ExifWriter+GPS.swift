// The GPS IFD's details beyond the position: time and date stamps, satellites, DOP, mode, speed, track.

import PinholeCore

extension ExifWriter {
    /// Writes what the fix knows besides latitude, longitude and altitude.
    static func writeGPSDetails(_ gps: GPSFix, _ b: ExifBuilder) throws {
        try b.ascii(.gps, ExifTagID.gpsStatus, "A")  // measurement in progress
        try b.ascii(.gps, ExifTagID.gpsMapDatum, "WGS-84")
        if let time = gps.time {
            let utc = CivilDateTime(epochSeconds: time.secondsSince1970)
            let seconds = Double(utc.second) + Double(time.nanoseconds) / 1e9
            try b.rational(
                .gps, ExifTagID.gpsTimeStamp,
                [
                    Rational(numerator: Int64(utc.hour), denominator: 1),
                    Rational(numerator: Int64(utc.minute), denominator: 1),
                    Rational(numerator: Int64((seconds * 1000).rounded(.down)), denominator: 1000),
                ])
            try b.ascii(
                .gps, ExifTagID.gpsDateStamp, "\(utc.year):\(twoDigits(utc.month)):\(twoDigits(utc.day))")
        }
        if let satellites = gps.satellites, satellites >= 0 {
            try b.ascii(.gps, ExifTagID.gpsSatellites, String(satellites))
        }
        if let mode = gps.measureMode, mode == 2 || mode == 3 {
            try b.ascii(.gps, ExifTagID.gpsMeasureMode, String(mode))
        }
        if let dop = gps.dop, dop.isFinite, dop > 0 {
            try b.rational(.gps, ExifTagID.gpsDOP, [Rational.approximating(dop, maxDenominator: 100)])
        }
        if let speed = gps.speed, speed.isFinite, speed >= 0 {
            try b.ascii(.gps, ExifTagID.gpsSpeedRef, "K")
            try b.rational(
                .gps, ExifTagID.gpsSpeed, [Rational.approximating(speed * 3.6, maxDenominator: 100)])
        }
        if let track = gps.track, track.isFinite, track >= 0, track < 360 {
            try b.ascii(.gps, ExifTagID.gpsTrackRef, "T")
            try b.rational(.gps, ExifTagID.gpsTrack, [Rational.approximating(track, maxDenominator: 100)])
        }
    }
}

extension ExifReader {
    /// Reads the GPS details `ExifWriter.writeGPSDetails` writes.
    static func readGPSDetails(_ fix: inout GPSFix, _ e: ExifEntries) {
        if let date = e.string(.gps, ExifTagID.gpsDateStamp),
            let stamp = e.rationals(.gps, ExifTagID.gpsTimeStamp, count: 3),
            let days = ExifDate.parse(date + " 00:00:00"),
            let h = stamp[0].value, let m = stamp[1].value, let s = stamp[2].value,
            (0..<24).contains(h), (0..<60).contains(m), (0..<61).contains(s)
        {
            let whole = Int64(s.rounded(.down))
            fix.time = WallTime(
                secondsSince1970: days + Int64(h) * 3600 + Int64(m) * 60 + whole,
                nanoseconds: Int32(((s - Double(whole)) * 1e9).rounded()))
        }
        fix.satellites = e.string(.gps, ExifTagID.gpsSatellites).flatMap { Int($0) }
        fix.measureMode = e.string(.gps, ExifTagID.gpsMeasureMode).flatMap { Int($0) }
        fix.dop = e.real(.gps, ExifTagID.gpsDOP).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        if let speed = e.real(.gps, ExifTagID.gpsSpeed), speed.isFinite, speed >= 0 {
            switch e.string(.gps, ExifTagID.gpsSpeedRef) ?? "K" {
            case "M": fix.speed = speed * 0.447_04
            case "N": fix.speed = speed * 0.514_444
            default: fix.speed = speed / 3.6
            }
        }
        fix.track = e.real(.gps, ExifTagID.gpsTrack).flatMap { $0.isFinite && $0 >= 0 && $0 < 360 ? $0 : nil }
    }
}
