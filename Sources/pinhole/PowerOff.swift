// Asks systemd to power the system off (after the shutdown chord, when the profile says so).

import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `systemctl poweroff` and waits for it.
enum PowerOff {
    /// Requests a power-off; failures are logged (the appliance has already stopped safely).
    static func request(log: Logger) {
        let argv = ["systemctl", "poweroff"]
        var pid: pid_t = 0
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for arg in cArgs { free(arg) } }
        let spawned = posix_spawnp(&pid, argv[0], nil, nil, &cArgs, environ)
        guard spawned == 0 else {
            log.error("cannot run systemctl poweroff (error \(spawned)): power off by hand")
            return
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if status != 0 {
            log.error(
                "systemctl poweroff failed (status \(status)): check the polkit rule in board/")
        }
    }
}
