// Runs a program as a child process and waits for it (posix_spawnp and waitpid).

import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run to completion: spawned from `PATH`, with this process's environment and
/// descriptors, waited for (EINTR waited again).
public enum ChildProcess {
    /// How a child ended.
    public enum Outcome: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
    }

    /// Runs `arguments` (`arguments[0]` looked up in `PATH`) and waits for it to end.
    /// - Throws: the `Errno` of `posix_spawnp` (ENOENT: not installed) or of `waitpid`.
    public static func run(_ arguments: [String]) throws(Errno) -> Outcome {
        guard let program = arguments.first else { throw Errno.invalidArgument }
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, nil, nil, &argv, environ)
        guard spawned == 0 else { throw Errno(rawValue: spawned) }
        var status: Int32 = 0
        try retryingInterrupts { waitpid(pid, &status, 0) }
        // The <sys/wait.h> macros are not imported: WIFEXITED is (status & 0x7f) == 0.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
