// sd_notify without libsystemd: READY, STATUS, STOPPING and watchdog pings to $NOTIFY_SOCKET.

import PinholeCore
import PinholeSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Sends service state to systemd through the notify socket (a unix datagram socket named
/// by `NOTIFY_SOCKET`; a leading `@` names an abstract socket), as `sd_notify(3)` does.
/// Outside systemd (no `NOTIFY_SOCKET`) every call does nothing.
public final class SystemdNotifier: @unchecked Sendable {
    /// The socket path, or nil when not run by systemd with `Type=notify`.
    public let socketPath: String?
    /// The watchdog period systemd asked for (`WATCHDOG_USEC`), when it is meant for this process.
    public let watchdogInterval: Duration?
    private var timer: TimerID?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment` (the
    /// process environment by default; tests pass their own).
    public init(environment: [String: String]? = nil, pid: Int32 = getpid()) {
        let environment = environment ?? Self.processEnvironment()
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        var interval: Duration?
        if let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 {
            if let owner = environment["WATCHDOG_PID"], let ownerPID = Int32(owner), ownerPID != pid {
                interval = nil  // meant for another process (our parent, say)
            } else {
                interval = .microseconds(usec)
            }
        }
        watchdogInterval = path == nil ? nil : interval
    }

    /// Sends one notification, e.g. `READY=1\nSTATUS=…`. Returns false when there is no
    /// socket or the datagram could not be sent.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath else { return false }
        guard
            let raw = try? retryingInterrupts({
                socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
        else {
            return false
        }
        let fd = FileDescriptor(rawValue: raw)
        defer { try? fd.close() }  // never retried: the descriptor is gone either way
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let payload = Array(state.utf8)
        let sent = try? withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                try retryingInterrupts {
                    sendto(fd.rawValue, payload, payload.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        return sent == payload.count
    }

    /// Pings the watchdog from `loop` at half the period systemd asked for, so a loop that
    /// stops turning (a hang) stops the pings and systemd restarts the service.
    public func startWatchdog(on loop: EventLoop) {
        guard let interval = watchdogInterval else { return }
        let period = interval / 2
        func ping() {
            notify("WATCHDOG=1")
            timer = loop.schedule(after: period) { ping() }
        }
        ping()
    }

    /// Stops the watchdog pings (before an orderly exit).
    public func stopWatchdog(on loop: EventLoop) {
        if let timer { loop.cancel(timer) }
        timer = nil
    }

    private static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
