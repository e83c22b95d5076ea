// Runs a program to its end and reports its own CPU time, peak memory and standard error (wait4's rusage).

import Foundation

/// One program run: posix_spawn, then wait4 for that child's own CPU time. Its peak memory is
/// its VmHWM, read every 20 ms until it ends: ru_maxrss would not do, the kernel starts a
/// spawned child's at the parent's own peak (the mm it replaced at exec), here the bench's.
struct MeasuredChild {
    /// User + system CPU seconds of the child.
    var cpu: Double
    /// Wall seconds from the spawn to the child's end.
    var wall: Double
    /// The child's peak resident kB (its last VmHWM read before it ended).
    var peakKB: Int
    /// What it wrote to standard error.
    var errorText: String

    /// Runs `path` with `arguments`; nil (and the reason printed under `section`) when it could
    /// not start or did not exit 0.
    static func run(_ path: String, _ arguments: [String], section: String) -> MeasuredChild? {
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-bench-child-\(getpid()).err")
        defer { try? FileManager.default.removeItem(at: errorFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let wall0 = VideoBenchmarks.monotonicSeconds()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else {
            print(
                "\(section)  failed: cannot run \(path) (tools/setup installs it): \(String(cString: strerror(spawned)))"
            )
            return nil
        }
        var status: Int32 = 0
        var usage = rusage()
        var peakKB = 0
        while true {
            let ended = wait4(pid, &status, WNOHANG, &usage)
            // WNOHANG never blocks, so never fails with EINTR: below 0 is a real failure.
            if ended == pid || ended < 0 { break }
            // VmHWM only grows: the last reading is the peak but for the child's last 20 ms.
            peakKB = max(peakKB, ApplianceMemoryBenchmark.statusField(pid, "VmHWM") ?? 0)
            usleep(20_000)
        }
        let wall = VideoBenchmarks.monotonicSeconds() - wall0
        let errorText = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        // Exited normally with 0: the low 7 bits (the signal) and the exit status are 0.
        guard status == 0 else {
            print("\(section)  failed: \(path) ended with wait status \(status): \(errorText.suffix(300))")
            return nil
        }
        return MeasuredChild(
            cpu: VideoBenchmarks.seconds(usage.ru_utime) + VideoBenchmarks.seconds(usage.ru_stime),
            wall: wall,
            peakKB: peakKB, errorText: errorText)
    }
}
