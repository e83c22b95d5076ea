// The one-line status summary at the top of the menu: recording, photo/video mode, camera, AF, exposure,
// torch, flash, photos, storage, last capture.

import PinholeAppliance

/// Formats the menu's status line.
public enum StatusLine {
    /// The status line for `status`, at most `width` columns: the full form when it fits,
    /// else a compact one that still names every item.
    public static func format(_ status: ApplianceStatus?, width: Int = 80) -> String {
        guard let status else { return String("status: waiting for the appliance…".prefix(width)) }
        let full = parts(status, compact: false)
        for (parts, separator) in [(full, " | "), (full, "|"), (parts(status, compact: true), "|")] {
            let line = (status.busy ? "* " : "") + parts.joined(separator: separator)
            if line.count <= width { return line }
        }
        return String(
            ((status.busy ? "* " : "") + parts(status, compact: true).joined(separator: "|")).prefix(width))
    }

    private static func parts(_ status: ApplianceStatus, compact: Bool) -> [String] {
        var parts: [String] = []
        if let recording = status.recording { parts.append(recording.line(bytes: bytes)) }
        // Where the board has a mode switch: which way it stands (video: the shutter records).
        if status.mode == CaptureMode.video.rawValue { parts.append(compact ? "VID" : "VIDEO") }
        if status.mode == CaptureMode.photo.rawValue { parts.append(compact ? "PH" : "PHOTO") }
        if let camera = status.camera {
            parts.append(compact ? camera.model : "\(camera.model) \(camera.position)")
        } else {
            parts.append(status.cameraMissing == nil ? "no camera" : "camera missing")
        }
        let mode = compact ? String(status.afMode.prefix(4)) : status.afMode
        parts.append("AF \(mode)/\(status.afState)")
        if let time = status.exposureTimeUs {
            var exposure = shutter(microseconds: time)
            if let gain = status.gain { exposure += " ISO\(Int((gain * 100).rounded()))" }
            parts.append(exposure)
        } else {
            parts.append("exp -")
        }
        parts.append("torch \(status.torch ? "on" : "off")")
        parts.append("flash \(status.flash)")
        parts.append("\(status.photos.map(String.init) ?? "?")" + (compact ? " ph" : " photos"))
        parts.append("\(status.storageFreeBytes.map(bytes) ?? "?")" + (compact ? "" : " free"))
        if let last = status.lastCapture {
            parts.append("last \(last.id.prefix(compact ? 6 : 8))")
        }
        return parts
    }

    /// An exposure time as photographers write it: 1/120, 0.5s, 2s.
    public static func shutter(microseconds: Int) -> String {
        guard microseconds > 0 else { return "-" }
        if microseconds >= 300_000 {
            let seconds = Double(microseconds) / 1_000_000
            return seconds >= 10 ? "\(Int(seconds.rounded()))s" : "\((seconds * 10).rounded() / 10)s"
        }
        return "1/\(Int((1_000_000 / Double(microseconds)).rounded()))"
    }

    /// A byte count in B, K, M, G, T with one decimal at most.
    public static func bytes(_ count: Int64) -> String {
        let units = ["B", "K", "M", "G", "T"]
        var value = Double(max(0, count))
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 || value >= 100 { return "\(Int(value.rounded()))\(units[unit])" }
        return "\((value * 10).rounded() / 10)\(units[unit])"
    }
}
