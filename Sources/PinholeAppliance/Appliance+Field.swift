// The appliance's unattended-operation parts: standby wake-ups and the field status fields.

import PinholeCore

extension Appliance {
    /// Marks the camera as used by `reason` (a button, a trigger, a timelapse slot, the
    /// viewfinder, a console capture): wakes it from standby and restarts its idle time.
    public func noteActivity(wakeFor reason: String) {
        standby.activity(reason)
    }
}
