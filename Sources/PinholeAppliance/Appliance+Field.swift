// The appliance's unattended-operation parts: standby wake-ups and the field status fields.

import PinholeCore

extension Appliance {
    /// Marks the camera as used by `reason` (a button, a trigger, a timelapse slot, the
    /// viewfinder, a console capture): wakes it from standby and restarts its idle time.
    public func noteActivity(wakeFor reason: String) {
        standby.activity(reason)
    }

    /// Adds timelapse, standby and storage state to a status snapshot.
    func fillFieldStatus(_ status: inout ApplianceStatus) {
        status.timelapse = timelapse.map { $0.status() }
        status.standby = engine.isInStandby
        status.standbyAfterSeconds = standby.after.map { Int($0.seconds) }
        status.lastWakeMs = engine.lastWakeCost?.milliseconds
        status.storageLow = indicator.lowStorage
    }
}

extension ApplianceStatus {
    /// The field part of the one-line status (empty when there is nothing to say).
    public var fieldSummary: String {
        var parts: [String] = []
        if let timelapse, timelapse.running {
            parts.append(
                "timelapse \(timelapse.taken) taken \(timelapse.missed) missed next \(timelapse.next ?? "none")"
            )
        }
        if standby == true { parts.append("camera in standby") }
        if storageLow == true { parts.append("storage low") }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")
    }
}
