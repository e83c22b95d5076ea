// The status page: storage, photos, camera, timelapse and triggers, GPS and clock trust,
// problems and the log, from the console's `status --json` and `log` answers.

import Foundation
import PinholeConsole

/// Renders the status sections (the page re-fetches them when an event is pushed).
enum StatusPage {
    /// The fields of `status --json` the page shows (all optional: an older or smaller
    /// appliance leaves some out).
    struct Fields: Decodable {
        struct Camera: Decodable {
            var model: String?
            var position: String?
            var stillSize: String?
        }
        struct Timelapse: Decodable {
            var running: Bool?
            var every: String?
            var count: Int?
            var taken: Int?
            var missed: Int?
            var next: String?
            var lastMissed: String?
        }
        struct Trigger: Decodable {
            var name: String?
            var line: String?
            var fired: Int?
            var shots: Int?
            var ignoredHoldOff: Int?
            var ignoredDebounce: Int?
        }
        var photos: Int?
        var storageFreeBytes: Int64?
        var storageLow: Bool?
        var whenFull: String?
        var recycled: Int?
        var camera: Camera?
        var cameras: Int?
        var torch: Bool?
        var flash: String?
        var exposure: String?
        var ev: Double?
        var afMode: String?
        var standby: Bool?
        var busy: Bool?
        var timelapse: Timelapse?
        var triggers: [Trigger]?
        var gps: String?
        var gpsState: String?
        var gpsSatellites: Int?
        var clock: String?
        var clockTrust: String?
        var problems: [String]?
        var access: String?
        var uptimeSeconds: Int?
    }

    /// The sections, or the answer as text when it is not the JSON status (an error).
    static func sections(statusJSON: String, log: String) -> String {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(statusJSON.utf8)) else {
            return "<pre>\(HTML.escape(statusJSON))</pre>"
        }
        var out = ""
        func section(_ title: String, _ rows: [(String, String?)]) {
            out += "<h2>\(HTML.escape(title))</h2><table>"
            for (label, value) in rows {
                out += "<tr><td>\(HTML.escape(label))</td><td>\(HTML.escape(value ?? "?"))</td></tr>"
            }
            out += "</table>"
        }
        let problems = fields.problems ?? []
        out += "<h2>Problems</h2>"
        out +=
            problems.isEmpty
            ? "<p class=\"ok\">none</p>"
            : "<ul class=\"error\">" + problems.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        section(
            "Storage",
            [
                ("Free", fields.storageFreeBytes.map(StatusLine.bytes)),
                ("Low", fields.storageLow.map { $0 ? "yes" : "no" }),
                ("When full", fields.whenFull), ("Recycled", fields.recycled.map(String.init)),
            ])
        section("Photos", [("Stored", fields.photos.map(String.init))])
        section(
            "Camera",
            [
                (
                    "Camera",
                    fields.camera.map { "\($0.model ?? "?") (\($0.position ?? "?")) \($0.stillSize ?? "")" }
                ),
                ("Cameras", fields.cameras.map(String.init)), ("Exposure", fields.exposure),
                ("EV", fields.ev.map { String($0) }), ("Focus", fields.afMode), ("Flash", fields.flash),
                ("Torch", fields.torch.map { $0 ? "on" : "off" }),
                ("Standby", fields.standby.map { $0 ? "yes" : "no" }),
            ])
        let timelapse = fields.timelapse
        section(
            "Timelapse",
            timelapse?.running == true
                ? [
                    (
                        "Running",
                        "every \(timelapse?.every ?? "?"), count \(timelapse?.count.map(String.init) ?? "-")"
                    ),
                    ("Taken", timelapse?.taken.map(String.init)),
                    ("Missed", timelapse?.missed.map(String.init)),
                    ("Next", timelapse?.next), ("Last missed", timelapse?.lastMissed ?? "-"),
                ]
                : [("Running", "no"), ("Taken", timelapse?.taken.map(String.init))])
        section(
            "Triggers",
            (fields.triggers ?? []).map { trigger in
                (
                    "\(trigger.name ?? "?") (\(trigger.line ?? "?"))",
                    "fired \(trigger.fired ?? 0), \(trigger.shots ?? 0) shots, ignored \(trigger.ignoredHoldOff ?? 0) "
                        + "in hold-off, \(trigger.ignoredDebounce ?? 0) in debounce"
                )
            } + ((fields.triggers ?? []).isEmpty ? [("Triggers", "none")] : []))
        section(
            "GPS and clock",
            [
                ("GPS", fields.gps), ("GPS state", fields.gpsState ?? "-"),
                ("Satellites", fields.gpsSatellites.map(String.init) ?? "-"), ("Clock", fields.clock),
                ("Clock trust", fields.clockTrust),
            ])
        section(
            "Appliance",
            [("Access", fields.access), ("Up", fields.uptimeSeconds.map { "\($0) s" })])
        out += "<h2>Log</h2><pre>\(HTML.escape(log))</pre>"
        return out
    }
}
