// Measures the appliance's resident memory idle and at its peak during a 12 MP capture.

import Foundation

/// Runs `pinhole run --board sim` as a child, reads /proc/PID/status around a capture.
enum ApplianceMemoryBenchmark {
    /// One 12.3 MP YUV 4:2:0 frame, the unit peak memory is reported in.
    static let fullFrameBytes = 4056 * 3040 * 3 / 2

    static func run() {
        guard let binary = ApplianceChild.builtBinary(section: "appliance.memory") else { return }
        guard let child = ApplianceChild(binary: binary) else { return }
        let ask = child.ask
        _ = ask("status")  // started and idle
        let pid = child.pid
        let idle = statusField(pid, "VmRSS")
        let idlePrivate = statusField(pid, "RssAnon")
        let idlePeak = statusField(pid, "VmHWM")
        let answer = ask("capture")
        let peak = statusField(pid, "VmHWM")
        let shared = statusField(pid, "RssFile") ?? 0
        child.stop()
        guard let idle, let peak, answer.hasPrefix("ok saved") else {
            print("appliance.memory  failed: \(answer)")
            return
        }
        let mb = { (kb: Int) in String(format: "%.1f MB", Double(kb) / 1024) }
        let frames = Double(peak * 1024) / Double(fullFrameBytes)
        let captureCost = Double((peak - (idlePeak ?? idle)) * 1024) / Double(fullFrameBytes)
        print(
            "appliance.memory.idle        \(mb(idle)) resident, of which \(mb(idlePrivate ?? 0)) private"
                + " and the rest shared library pages (aim < 25 MB)")
        print("appliance.memory.peak.private \(mb(peak - shared))  (peak resident less shared library pages)")
        print(
            "appliance.memory.peak        \(mb(peak))  (\(String(format: "%.2f", frames))x one 12 MP YUV frame of "
                + "\(mb(fullFrameBytes / 1024)); aim < 3x)")
        print(
            "appliance.memory.capture     +\(String(format: "%.2f", captureCost))x one frame above the idle peak"
        )
        idleWithAShimMapped(
            binary: binary, idle: idle, shim: "libPinholeCamera.so", library: "/libcamera.so", label: "shim",
            what: "libcamera", loaded: "loaded only on a libcamera board")
        idleWithAShimMapped(
            binary: binary, idle: idle, shim: "libPinholeVideo.so", library: "/libavcodec.so", label: "libav",
            what: "libav", loaded: "loaded on the first recording or clip read")
    }

    /// The reference for loading a shim's libraries on first use: the same binary with the shim
    /// (and so its libraries and their dependencies) mapped at start by LD_PRELOAD, as they were
    /// when it was linked into `pinhole` (libcamera: only on a libcamera board; libav: on the
    /// first recording or clip read).
    private static func idleWithAShimMapped(
        binary: URL, idle: Int, shim name: String, library: String, label: String, what: String,
        loaded: String
    ) {
        let shim = binary.deletingLastPathComponent().appendingPathComponent(name)
        guard let child = ApplianceChild(binary: binary, environment: ["LD_PRELOAD": shim.path]) else {
            return
        }
        _ = child.ask("status")
        let mapped = statusField(child.pid, "VmRSS")
        // Read to the end: /proc files have no size, a one-shot read would stop at a page.
        let maps = FileHandle(forReadingAtPath: "/proc/\(child.pid)/maps")?.readDataToEndOfFile() ?? Data()
        let isMapped = String(decoding: maps, as: UTF8.self).contains(library)
        child.stop()
        let field = "appliance.memory.idle.\(label)".padding(toLength: 28, withPad: " ", startingAt: 0)
        guard let mapped, isMapped else {
            print("\(field) failed: \(what) was not mapped with LD_PRELOAD=\(shim.path)")
            return
        }
        let megabytes = { (kb: Int) in String(format: "%.1f MB", Double(kb) / 1024) }
        print(
            "\(field) \(megabytes(mapped)) with \(what) mapped at start (linked, as before); \(loaded): "
                + "\(megabytes(mapped - idle)) less, \(String(format: "%.2f", Double(idle) / Double(mapped)))x"
        )
    }

    /// A `kB` field of /proc/PID/status.
    static func statusField(_ pid: Int32, _ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            return nil
        }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}

/// `pinhole run --board sim` as a child process answering line-mode commands.
struct ApplianceChild {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let library: URL

    /// `clock`: "virtual" (time moves only with the commands) or "real"; `arguments` go after the rest.
    init?(
        binary: URL, environment: [String: String] = [:], clock: String = "virtual", arguments: [String] = []
    ) {
        library = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-bench-\(getpid())-\(environment.count)")
        process.executableURL = binary
        process.arguments =
            ["run", "--board", "sim", "--library", library.path, "--clock", clock] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            print("appliance.memory  failed to start pinhole: \(error)")
            return nil
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// The `pinhole` built beside this benchmark; nil (and `SECTION  skipped: …` printed) when absent.
    static func builtBinary(section: String) -> URL? {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("pinhole")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            print("\(section)  skipped: \(binary.path) is not built (make bench builds it)")
            return nil
        }
        return binary
    }

    /// Sends one line and reads the one-line answer.
    func ask(_ line: String) -> String {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        return readLine()
    }

    /// Reads the next line the appliance writes.
    func readLine() -> String {
        var answer = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([10]) { break }
            answer.append(byte)
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// Quits, waits, and removes the library.
    func stop() {
        _ = ask("quit")
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: library)
    }
}
