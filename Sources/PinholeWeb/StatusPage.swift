// The status page: storage, photos, camera, timelapse and triggers, GPS and clock trust,
// problems and the log, from the console's `status --json` and `log` answers.

import PinholeConsole
import PinholeCore

/// Renders the status sections (the page re-fetches them when an event is pushed).
enum StatusPage {
    /// The sections, or the answer as text when it is not the JSON status (an error). Every
    /// field is optional: an older or smaller appliance leaves some out ("?").
    static func sections(statusJSON: String, log: String) -> String {
        guard let status = try? JSONValue.parse(statusJSON.utf8), case .object = status else {
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
        func text(_ value: JSONValue?) -> String? { value?.string }
        func number(_ value: JSONValue?) -> String? { value?.int.map(String.init) }
        func yesNo(_ value: JSONValue?, _ yes: String = "yes", _ no: String = "no") -> String? {
            value?.bool.map { $0 ? yes : no }
        }
        let problems = (status["problems"]?.array ?? []).compactMap(\.string)
        out += "<h2>Problems</h2>"
        out +=
            problems.isEmpty
            ? "<p class=\"ok\">none</p>"
            : "<ul class=\"error\">" + problems.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        section(
            "Storage",
            [
                ("Free", status["storageFreeBytes"]?.int.map { StatusLine.bytes(Int64($0)) }),
                ("Low", yesNo(status["storageLow"])), ("When full", text(status["whenFull"])),
                ("Recycled", number(status["recycled"])),
            ])
        section("Photos", [("Stored", number(status["photos"]))])
        let camera = status["camera"]
        section(
            "Camera",
            [
                (
                    "Camera",
                    camera.map {
                        "\(text($0["model"]) ?? "?") (\(text($0["position"]) ?? "?")) \(text($0["stillSize"]) ?? "")"
                    }
                ),
                ("Cameras", number(status["cameras"])), ("Exposure", text(status["exposure"])),
                ("EV", status["ev"]?.double.map { String($0) }), ("Focus", text(status["afMode"])),
                ("Flash", text(status["flash"])), ("Torch", yesNo(status["torch"], "on", "off")),
                ("Standby", yesNo(status["standby"])),
            ])
        let timelapse = status["timelapse"]
        section(
            "Timelapse",
            timelapse?["running"]?.bool == true
                ? [
                    (
                        "Running",
                        "every \(text(timelapse?["every"]) ?? "?"), count \(number(timelapse?["count"]) ?? "-")"
                    ),
                    ("Taken", number(timelapse?["taken"])), ("Missed", number(timelapse?["missed"])),
                    ("Next", text(timelapse?["next"])),
                    ("Last missed", text(timelapse?["lastMissed"]) ?? "-"),
                ]
                : [("Running", "no"), ("Taken", number(timelapse?["taken"]))])
        let triggers = status["triggers"]?.array ?? []
        section(
            "Triggers",
            triggers.map { trigger in
                let count = { (key: String) in number(trigger[key]) ?? "0" }
                return (
                    "\(text(trigger["name"]) ?? "?") (\(text(trigger["line"]) ?? "?"))",
                    "fired \(count("fired")), \(count("shots")) shots, ignored \(count("ignoredHoldOff")) "
                        + "in hold-off, \(count("ignoredDebounce")) in debounce"
                )
            } + (triggers.isEmpty ? [("Triggers", "none")] : []))
        section(
            "GPS and clock",
            [
                ("GPS", text(status["gps"])), ("GPS state", text(status["gpsState"]) ?? "-"),
                ("Satellites", number(status["gpsSatellites"]) ?? "-"), ("Clock", text(status["clock"])),
                ("Clock trust", text(status["clockTrust"])),
            ])
        section(
            "Appliance",
            [("Access", text(status["access"])), ("Up", status["uptimeSeconds"]?.int.map { "\($0) s" })])
        out += "<h2>Log</h2><pre>\(HTML.escape(log))</pre>"
        return out
    }
}
