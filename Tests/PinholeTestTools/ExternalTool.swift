// Runs an external program (ffprobe, exiftool, djpeg, curl, dtc, the built pinhole) for a test, to its end.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the real tools the tests check against, the same way everywhere: spawned directly
/// (no shell), standard input from a file or /dev/null, standard output and error into
/// temporary files rather than pipes, and waited for with EINTR retried. Files instead of
/// pipes because a child that fills one pipe while the test reads the other blocks forever,
/// and because tmux hands a client's descriptors to its server, which then holds a pipe open;
/// EINTR retried because another child's exit interrupts a blocking read or wait, on which
/// Foundation's `readDataToEndOfFile()` traps.
public enum ExternalTool {
    /// What a program left behind when it exited.
    public struct Result: Sendable {
        /// Its exit status (128 + the signal number when a signal ended it).
        public var status: Int32
        /// Everything it wrote to standard output.
        public var output: [UInt8]
        /// Everything it wrote to standard error.
        public var errors: [UInt8]

        /// Standard output as UTF-8 text.
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// A tool the test needs is not installed. Tests fail on it rather than skip: a machine
    /// set up by tools/setup has every tool, and a test that passes without its tool checks nothing.
    public struct Missing: Error, CustomStringConvertible {
        /// The tool's name or path.
        public var tool: String
        /// What to do about it.
        public var description: String { "\(tool) is not installed: run tools/setup" }
    }

    /// A program that could not be started at all.
    public struct SpawnFailure: Error, CustomStringConvertible {
        /// The program's path.
        public var program: String
        /// posix_spawn's error number.
        public var code: Int32
        /// The program and the reason.
        public var description: String { "cannot run \(program): \(String(cString: strerror(code)))" }
    }

    /// The folders a tool named without a slash is looked for in.
    public static let searchPath = ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin", "/sbin"]

    /// The full path of `tool`: itself when it names a path, else the first executable of that
    /// name in `searchPath`.
    public static func locate(_ tool: String) throws -> String {
        if tool.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: tool) else { throw Missing(tool: tool) }
            return tool
        }
        for folder in searchPath where FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)") {
            return "\(folder)/\(tool)"
        }
        throw Missing(tool: tool)
    }

    /// Runs `tool` (a name looked up in `searchPath`, or a path) with `arguments` to its end.
    /// - Parameters:
    ///   - input: bytes for its standard input (none: /dev/null).
    ///   - environment: variables set on top of the test's own environment.
    ///   - directory: its working directory (none: the test's).
    ///   - captureOutput: false sends standard output and error to /dev/null.
    public static func run(
        _ tool: String, _ arguments: [String], input: [UInt8]? = nil,
        environment: [String: String] = [:], directory: String? = nil, captureOutput: Bool = true
    ) throws -> Result {
        let program = try locate(tool)
        let scratch = NSTemporaryDirectory() + "/pinhole-tool-\(UUID().uuidString)"
        let inputPath = input == nil ? "/dev/null" : scratch + ".in"
        let outputPath = captureOutput ? scratch + ".out" : "/dev/null"
        let errorPath = captureOutput ? scratch + ".err" : "/dev/null"
        defer { for path in [scratch + ".in", scratch + ".out", scratch + ".err"] { unlink(path) } }
        if let input {
            guard FileManager.default.createFile(atPath: inputPath, contents: Data(input)) else {
                throw SpawnFailure(program: program, code: errno)
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        // A working directory through env(1): glibc's addchdir action is not visible to Swift.
        let command = directory.map { ["/usr/bin/env", "-C", $0, program] } ?? [program]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnFailure(program: program, code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(
            status: exitStatus,
            output: captureOutput ? contents(of: outputPath) : [],
            errors: captureOutput ? contents(of: errorPath) : [])
    }

    /// A file's bytes (none when it is missing).
    private static func contents(of path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }
}
