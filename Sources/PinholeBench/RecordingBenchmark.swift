// A real-time 1080p30 recording on the simulated board: frames in the file, drops, CPU and peak memory.

import Foundation
import PinholeCore

/// `pinhole run --board sim` (real clock) with `[video] 1920x1080 30 fps, pre_roll_s = 3`:
/// `record start --max 60` to the saved event; ffprobe counts the file's frames.
enum RecordingBenchmark {
    static let seconds = 60
    static let preRoll = 3.0
    /// One 1920x1080 YUV 4:2:0 frame, the unit the recording's memory is reported in.
    static let frameBytes = 1920 * 1080 * 3 / 2

    static func run() {
        guard let binary = ApplianceChild.builtBinary(section: "video.record") else { return }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-video-bench-\(getpid()).toml")
        let text = "[video]\nsize = \"1920x1080\"\nfps = 30\nkeyframe_s = 1\npre_roll_s = \(preRoll)\n"
        guard (try? text.write(to: config, atomically: true, encoding: .utf8)) != nil else {
            print("video.record  failed: cannot write \(config.path)")
            return
        }
        defer { try? FileManager.default.removeItem(at: config) }
        guard
            let child = ApplianceChild(
                binary: binary, clock: "real", arguments: ["--config", config.path])
        else { return }
        defer { child.stop() }
        _ = child.ask("status")
        let pid = child.pid
        let idlePeak = ApplianceMemoryBenchmark.statusField(pid, "VmHWM") ?? 0
        let cpu0 = processCPU(pid)
        let wall0 = VideoBenchmarks.monotonicSeconds()
        let answer = child.ask("record start --max \(seconds)")
        guard answer.hasPrefix("ok recording") else {
            print("video.record  failed: record start answered \(answer)")
            return
        }
        var saved = ""
        while saved.isEmpty {
            let line = child.readLine()
            if line.isEmpty { break }
            if line.contains("recording saved") || line.contains("recording failed") { saved = line }
        }
        let wall = VideoBenchmarks.monotonicSeconds() - wall0
        let cpu = processCPU(pid) - cpu0
        let peak = ApplianceMemoryBenchmark.statusField(pid, "VmHWM") ?? 0
        guard saved.contains("recording saved") else {
            print("video.record  failed: \(saved.isEmpty ? "no saved event" : saved)")
            return
        }
        let words = saved.split(separator: " ")
        let path = words.count > 4 ? String(words[4]) : ""
        let file = path.hasPrefix("/") ? path : child.library.appendingPathComponent(path).path
        let frames = countFrames(file)
        let dropped =
            saved.range(of: #"\((\d+) frames dropped\)"#, options: .regularExpression).map {
                saved[$0].filter(\.isNumber)
            } ?? "0"
        var settings = VideoSettings()
        settings.size = PixelSize(width: 1920, height: 1080)
        let bitRate = settings.encoderSettings(.libx264).bitRate
        let ring = 1.2 * Double(bitRate) / 8 * preRoll
        let budget = 3 * Double(frameBytes) + ring
        let added = Double(max(0, peak - idlePeak) * 1024)
        print(
            "video.record.frames     \(frames.map(String.init) ?? "?") frames in the file for \(seconds) s at 30 fps"
                + " (want \(seconds * 30) ± 1), \(dropped) dropped; \(BenchLoad.text())")
        print(
            String(
                format:
                    "video.record.cpu        %.1f %% of one core over %.1f s (%.1f s CPU: render the simulated"
                    + " 1080p stream, scale, encode, mux, fsync each fragment)", cpu / wall * 100, wall, cpu))
        print(
            String(
                format: "video.record.memory     peak %.1f MB, %.1f MB above the idle peak = %.2fx the budget"
                    + " (3 x one 1080p YUV frame %.1f MB + ring limit %.1f MB = %.1f MB; aim < 1x)",
                Double(peak) / 1024, added / 1_048_576, added / budget, Double(3 * frameBytes) / 1_048_576,
                ring / 1_048_576, budget / 1_048_576))
    }

    /// utime + stime of a process, seconds (/proc/PID/stat fields 14 and 15, clock ticks).
    private static func processCPU(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, so utime (14) is index 11 here.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            return 0
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Frames ffprobe decodes in the file (nil when it cannot read it).
    private static func countFrames(_ file: String) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
            "stream=nb_read_frames",
            "-of", "csv=p=0", file,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
