// The appliance's unattended-operation parts: standby wake-ups and the field status fields.

import PinholeCore
import PinholeField

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
        status.whenFull = storagePolicy.whenFull.rawValue
        status.recycled = storagePolicy.recycled
        if let triggers, !board.triggers.isEmpty { status.triggers = triggers.status() }
        if let (instant, wall) = startedAt {
            status.startedAt = wall.iso8601
            status.uptimeSeconds = Int((loop.now - instant).seconds)
        }
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
        if let uptimeSeconds { parts.append("up " + Self.uptime(uptimeSeconds)) }
        if standby == true { parts.append("camera in standby") }
        if storageLow == true { parts.append("storage low") }
        for trigger in triggers ?? [] { parts.append(trigger.summary) }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")
    }

    /// `45 s`, `12 min`, `5 h 3 min`, `31 d 4 h`: how long it has been running.
    public static func uptime(_ seconds: Int) -> String {
        let (days, hours, minutes) = (seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        return minutes > 0 ? "\(minutes) min" : "\(seconds) s"
    }
}

extension Appliance {
    /// With `when_full = recycle` and free space under the low-storage mark, removes the
    /// oldest unprotected photos (off the loop) until the mark is cleared, logging each.
    func applyStoragePolicy(free: Int64) {
        guard storagePolicy.whenFull == .recycle, !storagePolicy.recycling, free < lowStorageBytes,
            let recycler = store as? any StorageRecycling
        else { return }
        storagePolicy.recycling = true
        let target = lowStorageBytes
        loop.offload({ Result { try recycler.recycle(untilFree: target) } }) { [weak self] outcome in
            guard let self else { return }
            self.storagePolicy.recycling = false
            switch outcome {
            case .success(let lines) where lines.isEmpty:
                if !self.storagePolicy.exhausted {
                    self.storagePolicy.exhausted = true
                    self.problem(
                        "storage low and nothing left to recycle (every photo is a favourite or in an album):"
                            + " new photos will be refused when the card is full")
                }
            case .success(let lines):
                self.storagePolicy.exhausted = false
                self.storagePolicy.recycled += lines.count
                for line in lines { self.emit(.notice(line)) }
                self.checkStorage()
            case .failure(let error):
                self.problem("recycling old photos failed: \(error)")
            }
        }
    }
}
