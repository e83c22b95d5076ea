// The configuration file's [video] table: size, fps, quality or bitrate, limits, pre-roll, encoder.

import PinholeCore
import SystemPackage

extension Configuration {
    /// Reads `[video]`; every bad value names the file, the line and what would do.
    static func parseVideo(_ table: TOMLTable, file: FilePath) throws -> VideoSettings {
        var r = TableReader(table: table, file: file, context: "[video]")
        var settings = VideoSettings()
        func fail(_ key: String, _ reason: String) -> ConfigurationError {
            ConfigurationError(file: file, line: table.line(of: key), reason: "[video] \(reason)")
        }
        if let size = try r.string("size") {
            let parts = size.split(separator: "x").map { Int($0) }
            guard parts.count == 2, let width = parts[0], let height = parts[1] else {
                throw fail("size", "size is '\(size)': give WIDTHxHEIGHT, e.g. \"1920x1080\"")
            }
            settings.size = PixelSize(width: width, height: height)
        }
        settings.fps = try r.integer("fps", in: 1...120) ?? settings.fps
        if let quality = try r.string("quality") {
            guard let value = VideoQuality(rawValue: quality) else {
                throw fail("quality", "quality is '\(quality)': use low, medium or high")
            }
            settings.quality = value
        }
        settings.bitRate = try r.integer("bitrate", in: VideoSettings.bitRateRange)
        settings.maxDurationSeconds =
            try r.number("max_duration_s", in: 1...VideoSettings.longestClipSeconds)
            ?? settings.maxDurationSeconds
        settings.keyframeSeconds = try r.number("keyframe_s", in: 0.1...10) ?? settings.keyframeSeconds
        settings.preRollSeconds =
            try r.number("pre_roll_s", in: 0...VideoSettings.longestPreRollSeconds) ?? settings.preRollSeconds
        if let encoder = try r.string("encoder") {
            guard let value = VideoEncoderChoice(rawValue: encoder) else {
                throw fail("encoder", "encoder is '\(encoder)': use auto, v4l2m2m or libx264")
            }
            settings.encoder = value
        }
        do {
            try settings.validate(for: nil)
        } catch {
            throw fail("size", error.description)
        }
        try r.rejectUnknown()
        return settings
    }
}
