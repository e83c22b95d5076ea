// The GPS page: the fix photos get now, satellites and DOP, gpsd's state and why there is no fix, clock trust.

import PinholeAppliance

/// Place and time: what gpsd gives the photos taken now, and whether the clock is trusted.
enum GPSPage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        guard let status = menu.snapshot.status else { return [.info("Waiting for the appliance…")] }
        guard let gpsd = status.gpsd else {
            return [
                .info("GPS", "off"),
                .info("  to turn it on, set [gps] gpsd = \"127.0.0.1:2947\" in the configuration"),
                .info("Clock", status.clock ?? "unknown"),
                .info("Running since", runningSince(status)),
            ]
        }
        var items: [MenuItem] = [
            .info("gpsd", "\(gpsd): \(status.gpsState ?? "?")"),
            .info("Fix", status.gps ?? "?"),
        ]
        if let fix = status.gpsFix {
            items.append(
                .info("Position", "\(degrees(fix.latitude, "N", "S")) \(degrees(fix.longitude, "E", "W"))"))
            items.append(.info("Altitude", fix.altitude.map { "\(rounded($0, 1)) m" } ?? "- (2D fix)"))
            items.append(.info("Mode", fix.mode == 3 ? "3D" : "2D"))
            items.append(.info("Satellites used", fix.satellites.map(String.init) ?? "-"))
            items.append(.info("DOP", fix.dop.map { "\(rounded($0, 1))" } ?? "-"))
            items.append(.info("GPS time", fix.time ?? "-"))
            if let speed = fix.speed {
                let track = fix.track.map { ", course \(rounded($0, 0))°" } ?? ""
                items.append(.info("Speed", "\(rounded(speed, 1)) m/s\(track)"))
            }
        } else {
            items.append(.info("Satellites used", status.gpsSatellites.map(String.init) ?? "-"))
            items.append(.info("Photos now", "taken without location"))
        }
        items.append(.info("Clock", status.clock ?? "unknown"))
        items.append(.info("Running since", runningSince(status)))
        items.append(.info(""))
        items.append(
            MenuItem(
                "Photos with a location", value: "count them",
                action: .run(LibraryWordsCommand(["count", "--with-location"])), needsPIN: true))
        items.append(
            MenuItem(
                "Photos without a location", value: "count them",
                action: .run(LibraryWordsCommand(["count", "--without-location"])), needsPIN: true))
        if let fix = status.gpsFix {
            items.append(
                MenuItem(
                    "Photos taken near here", value: "within 1 km of the fix",
                    action: .run(
                        LibraryWordsCommand([
                            "list", "--near", "\(fix.latitude),\(fix.longitude)", "--within", "1",
                        ])),
                    needsPIN: true))
        }
        return items
    }

    /// `2026-06-01T03:12:40.120+02:00 (31 d 4 h)`: the last start, which a power cut renews.
    static func runningSince(_ status: ApplianceStatus) -> String {
        guard let started = status.startedAt else { return "-" }
        return started + (status.uptimeSeconds.map { " (\(ApplianceStatus.uptime($0)))" } ?? "")
    }

    /// `46.5201° N`: degrees to five decimals at most (about a metre) and the hemisphere.
    static func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
        "\(rounded(abs(value), 5))° \(value < 0 ? negative : positive)"
    }

    private static func rounded(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let text = String((value * scale).rounded() / scale)
        return places == 0 && text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
