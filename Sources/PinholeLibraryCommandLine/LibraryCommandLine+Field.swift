// `library` options for place and time: --near/--within, --with-location, --clock, and `redate`.

import PinholeCore
import PinholeLibrary

extension LibraryCommandLine {
    /// Largest date correction accepted (a century).
    static let maxRedateSeconds = 100.0 * 366 * 86_400

    /// Adds the location and clock-trust filters of list-style options to `query`.
    static func fieldFilters(_ query: AssetQuery, _ args: inout CommandArguments) throws -> AssetQuery {
        var query = query
        if args.flag("with-location") { query = query.filter(.hasLocation(true)) }
        if args.flag("without-location") { query = query.filter(.hasLocation(false)) }
        let near = args.option("near")
        let within = args.option("within")
        if let near {
            let parts = near.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
            else {
                throw LibraryError.invalidRequest(
                    "--near needs LAT,LON in degrees (north and east positive), e.g. 48.8584,2.2945, not '\(near)'"
                )
            }
            guard let within else {
                throw LibraryError.invalidRequest("--near needs --within KM (the radius in kilometres)")
            }
            guard let kilometres = Double(within), kilometres.isFinite, kilometres >= 0, kilometres <= 20_100
            else {
                throw LibraryError.invalidRequest(
                    "--within needs a radius in kilometres between 0 and 20100, not '\(within)'")
            }
            query = query.filter(.near(latitude: latitude, longitude: longitude, kilometres: kilometres))
        } else if within != nil {
            throw LibraryError.invalidRequest("--within needs --near LAT,LON")
        }
        if let clock = args.option("clock") {
            guard let trust = ClockTrust(rawValue: clock) else {
                throw LibraryError.invalidRequest(
                    "--clock must be synchronized, gps, unsynchronized or unknown, not '\(clock)'")
            }
            query = query.filter(.clockTrust(trust))
        }
        return query
    }

    /// Marks after a photo's line in `list`: where it was taken, and a date worth doubting.
    static func fieldMarks(_ asset: Asset) -> String {
        var marks = ""
        if asset.mediaType != .photo {
            marks +=
                " \(asset.mediaType.rawValue)"
                + (asset.duration.map { " " + DurationText.clipLength($0) } ?? "")
        }
        if asset.gps != nil { marks += " located" }
        if let trust = asset.clockTrust, !trust.isTrusted { marks += " clock:\(trust.rawValue)" }
        if asset.dateShift != .zero { marks += " redated:\(signedSeconds(asset.dateShift))" }
        return marks
    }

    /// Lines of `show` about place and time.
    static func fieldLines(_ asset: Asset) -> [String] {
        var lines: [String] = []
        if asset.mediaType != .photo {
            lines.append("type: \(asset.mediaType.rawValue)")
            if let duration = asset.duration {
                lines.append("duration: \(DurationText.clipLength(duration))")
            }
            if let rate = asset.frameRate { lines.append("frame rate: \(rate) fps") }
            if let codec = asset.codec { lines.append("codec: \(codec)") }
            if let trigger = asset.triggerOffset {
                lines.append("trigger: at \(DurationText.clipLength(trigger))")
            }
        }
        if let gps = asset.gps {
            lines.append(
                "location: \(gps.latitude), \(gps.longitude)" + (gps.altitude.map { ", \($0) m" } ?? ""))
        } else {
            lines.append("location: none")
        }
        lines.append("clock: \(asset.clockTrust?.rawValue ?? "not recorded")")
        lines.append(
            "exposure: "
                + (asset.pressToExposure.map { "began " + PressLagText.relativeToPress($0) } ?? "not recorded")
        )
        if let wake = asset.wakeCost {
            lines.append(
                "wake: the press woke the camera; first usable frame after \(PressLagText.milliseconds(wake)) ms"
            )
        }
        if asset.dateShift != .zero {
            lines.append(
                "redated: \(signedSeconds(asset.dateShift)) (the original says \(asset.originalCreated.iso8601))"
            )
        }
        return lines
    }

    static func signedSeconds(_ shift: Duration) -> String {
        let seconds = Double(shift.nanoseconds) / 1e9
        let text = seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
        return (seconds >= 0 ? "+" : "") + text + "s"
    }

    /// `library redate ID... --by SECONDS`, or `library redate [filters of list] --by SECONDS`
    /// with at least --from or --to: one batch.
    static func redate(
        _ operands: [String], _ args: inout CommandArguments, json: Bool, library: PhotoLibrary
    )
        throws -> String
    {
        let usage =
            "usage: library redate ID... --by SECONDS, or library redate --from DATE --to DATE --by SECONDS"
        guard let text = args.option("by") else { throw LibraryError.invalidRequest(usage) }
        guard let seconds = Double(text), seconds.isFinite, abs(seconds) <= maxRedateSeconds, seconds != 0
        else {
            throw LibraryError.invalidRequest(
                "--by needs a non-zero number of seconds (negative moves dates earlier), not '\(text)'")
        }
        let ranged = args.option("from") != nil || args.option("to") != nil
        let ids: [String]
        if operands.isEmpty {
            guard ranged else {
                throw LibraryError.invalidRequest("\(usage) (a range needs --from or --to)")
            }
            ids = try library.assets(try query(&args, library: library)).map(\.id)
        } else {
            guard !ranged else {
                throw LibraryError.invalidRequest("\(usage) (IDs or a date range, not both)")
            }
            ids = try resolveAll(operands, command: "redate", library: library)
        }
        try args.rejectUnknown(command: "redate")
        if !ids.isEmpty {
            _ = try library.performChanges {
                $0.redate(ids, by: .nanoseconds(Int64((seconds * 1e9).rounded())))
            }
        }
        if json { return try LibraryJSON.encode(["ok": ids]) }
        return "ok \(ids.count) redated by \(signedSeconds(.nanoseconds(Int64((seconds * 1e9).rounded()))))"
    }
}
