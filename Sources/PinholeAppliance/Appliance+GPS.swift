// GPS place and clock trust on the appliance: per-photo metadata, status and log lines.

import PinholeCapture
import PinholeCore
import PinholeField
import PinholeImaging

extension Appliance {
    /// Attaches the gpsd client and the clock-trust monitor (either may be nil): every photo
    /// from then on carries the current fix (or none) and the clock trust in its metadata,
    /// and their changes go to the log. Starts the tracker.
    public func attachField(gps: GPSTracker?, clock: ClockTrustMonitor?) {
        self.gps = gps
        self.clockTrust = clock
        clock?.onLog = { [weak self] line in self?.problem(line) }
        gps?.onLog = { [weak self] line in self?.problem(line) }
        gps?.onTime = { [weak clock] time, at, mode in clock?.gpsTime(time, receivedAt: at, fixMode: mode) }
        gps?.start()
    }

    /// The capture engine's last word on a photo's metadata: place and clock trust.
    public func captureEngine(_ engine: CaptureEngine, complete metadata: inout PhotoMetadata) {
        fieldMetadata(&metadata)
    }

    /// Sets a photo's location and clock trust from the current fix and clock state.
    public func fieldMetadata(_ metadata: inout PhotoMetadata) {
        if let gps {
            metadata.gps = gps.currentFix
        }
        if let clockTrust {
            metadata.clockTrust = clockTrust.trust
            metadata.timeZoneKnown = clockTrust.timeZoneKnown
        }
    }

    func fillGPSStatus(_ status: inout ApplianceStatus) {
        status.gps = gps?.summary ?? "off"
        if let fix = gps?.currentFix {
            status.gpsFix = GPSFixStatus(
                latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude,
                mode: fix.measureMode,
                satellites: fix.satellites, dop: fix.dop, time: fix.time?.iso8601, speed: fix.speed,
                track: fix.track)
        }
        if let gps {
            status.gpsd = "\(gps.host):\(gps.port)"
            status.gpsState = gps.state.name
            status.gpsSatellites = gps.sky?.satellitesUsed
        }
        if let clockTrust {
            status.clockTrust = clockTrust.trust.rawValue
            status.clock = clockTrust.summary
        }
    }
}
