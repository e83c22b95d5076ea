// The calling thread's scheduling priority (its nice value), for work with a deadline such as encoding video.

import CSystemCalls
import SystemPackage

/// The calling thread's nice value. Linux keeps one per thread, and a thread inherits its
/// creator's: a thread that raises its own before it starts an encoder's threads raises theirs.
public enum ThreadPriority {
    /// The calling thread's nice value (−20 most favoured … 19 least).
    public static var niceness: Int32 { pinhole_thread_niceness() }

    /// Sets the calling thread's nice value. Lowering it below the process's start needs
    /// CAP_SYS_NICE or an RLIMIT_NICE that allows it (systemd's LimitNICE=).
    /// - Throws: the errno, `.notPermitted` or `.permissionDenied` when not allowed.
    public static func setNiceness(_ value: Int32) throws(Errno) {
        let error = pinhole_set_thread_niceness(value)
        guard error == 0 else { throw Errno(rawValue: error) }
    }
}
