// Real-time 1080p30 recordings on the simulated board: frames in the file, drops, CPU, memory, pre-roll and start latency.

import Foundation
import PinholeCore

/// `pinhole run --board sim` (real clock) with `[video] 1920x1080 30 fps, pre_roll_s = 3`:
/// `record start --max 60` to the saved event (ffprobe counts the file's frames), then a
/// `record start --pre 3` clip from the refilled ring; then an appliance without a ring for the
/// start latency of a cold encoder; then the idle cost of `[capture] live = true`.
enum RecordingBenchmark {
    static let seconds = 60
    static let preRoll = 3.0
    static let fps = 30
    /// One 1920x1080 YUV 4:2:0 frame, the unit the recording's memory is reported in.
    static let frameBytes = 1920 * 1080 * 3 / 2

    /// What the encode part measured in the same run, for the budgets here.
    struct EncoderFigures {
        /// Resident bytes libx264 and the muxer added at 1080p (open to the last frame).
        var stateBytes: Double
        /// Of it, the anonymous memory libx264, libavcodec and the muxer added (smaps: not the
        /// pages of libav's shared objects, which the first open mapped).
        var anonymousBytes: Double
        /// Seconds from opening the encoder to its first packet (open + one frame).
        var coldLatency: Double
        /// Seconds an open encoder takes for its first frame (the encoder's own latency when
        /// video mode keeps it open).
        var warmLatency: Double
    }

    static func run(encoder: EncoderFigures) {
        guard let binary = ApplianceChild.builtBinary(section: "video.record") else { return }
        var settings = VideoSettings()
        settings.size = PixelSize(width: 1920, height: 1080)
        let bitRate = settings.encoderSettings(.libx264).bitRate
        recordWithRing(binary, bitRate: bitRate, encoder: encoder)
        let idle = startWithoutRing(binary, encoder: encoder)
        liveEncoderCost(binary, idle: idle)
    }

    /// `[capture] live = true` keeps the encoder running for every still's clip: the idle
    /// appliance's CPU with it against without (the appliance of `startWithoutRing`).
    private static func liveEncoderCost(_ binary: URL, idle: Double?) {
        guard let idle, let child = VideoChild(binary, preRoll: 0, live: true) else { return }
        defer { child.stop() }
        _ = child.appliance.ask("status")
        Thread.sleep(forTimeInterval: 2)
        let live = child.idleCPU(seconds: idleSeconds)
        print(
            String(
                format:
                    "video.live.cpu          [capture] live = true, idle: %.1f %% of one core; without it %.1f %%;"
                    + " the always-on 1080p30 encoder costs %.1f %% of one core; ", live, idle, live - idle)
                + BenchLoad.text())
    }

    /// Seconds the idle appliances are measured for.
    static let idleSeconds = 15.0

    /// The 60 s recording and the pre-roll clip, on one appliance keeping a 3 s ring.
    private static func recordWithRing(_ binary: URL, bitRate: Int, encoder: EncoderFigures) {
        guard let child = VideoChild(binary, preRoll: preRoll) else { return }
        defer { child.stop() }
        _ = child.appliance.ask("status")
        let pid = child.appliance.pid
        let idlePeak = ApplianceMemoryBenchmark.statusField(pid, "VmHWM") ?? 0
        let idleMap = MemoryMapReading.read(pid)
        let sampler = MemoryMapSampler(pid: pid)
        let cpu0 = processCPU(pid)
        let wall0 = VideoBenchmarks.monotonicSeconds()
        guard let saved = child.record("record start --max \(seconds)", section: "video.record") else {
            return
        }
        let wall = VideoBenchmarks.monotonicSeconds() - wall0
        let cpu = processCPU(pid) - cpu0
        let peak = ApplianceMemoryBenchmark.statusField(pid, "VmHWM") ?? 0
        let highestMap = sampler.stop()
        let frames = countFrames(child.file(of: saved.event))
        let dropped =
            saved.event.range(of: #"\((\d+) frames dropped\)"#, options: .regularExpression).map {
                saved.event[$0].filter(\.isNumber)
            } ?? "0"
        let ring = 1.2 * Double(bitRate) / 8 * preRoll
        let budget = 3 * Double(frameBytes) + ring
        let added = Double(max(0, peak - idlePeak) * 1024)
        let mb = { (bytes: Double) in String(format: "%.1f MB", bytes / 1_048_576) }
        print(
            "video.record.frames     \(frames.map(String.init) ?? "?") frames in the file for \(seconds) s at \(fps) fps"
                + " (want \(seconds * fps) ± 1), \(dropped) dropped; at the start \(saved.load), at the end "
                + BenchLoad.text())
        print(
            String(
                format:
                    "video.record.cpu        %.1f %% of one core over %.1f s (%.1f s CPU: render the simulated"
                    + " 1080p stream, scale, encode, mux, fsync each fragment)", cpu / wall * 100, wall, cpu))
        print(
            "video.record.memory     peak \(mb(Double(peak * 1024))), \(mb(added)) above the idle peak = "
                + String(format: "%.2fx", added / budget)
                + " the budget (3 x one 1080p YUV frame \(mb(Double(3 * frameBytes))) + ring limit \(mb(ring))"
                + " = \(mb(budget)); aim < 1x)")
        RecordingMemory(
            idle: idleMap, highest: highestMap, readings: sampler.readings, peakAboveIdle: added,
            budget: budget,
            encoder: encoder
        ).print()
        // The ring refills for its span after the clip closed (the encoder restarts), then a
        // clip from 3 s before `record start`.
        Thread.sleep(forTimeInterval: preRoll + 1.5)
        guard let pre = child.record("record start --pre \(preRoll) --max 5", section: "video.preroll") else {
            return
        }
        let first = pre.status["first_frame_ms"]
        let ringPeak = pre.status["ring_peak_bytes"]
        print(
            "video.preroll.first     "
                + (first.map { String(format: "first frame %.1f ms from `record start --pre 3`", $0) }
                    ?? "no figure")
                + String(format: " (aim <= %.0f ms: trigger - pre_s)", -preRoll * 1000) + "; \(pre.load)")
        print(
            "video.preroll.ring      "
                + (ringPeak.map {
                    String(
                        format: "at most %.2f MB held = %.2fx bitrate x pre_s (%.2f MB; aim <= 1.2x)",
                        $0 / 1_048_576, $0 / (Double(bitRate) / 8 * preRoll),
                        Double(bitRate) / 8 * preRoll / 1_048_576)
                } ?? "no figure")
                + String(
                    format:
                        "; the byte limit cut the ring below 3 s %.0f times; keyframe every %.3f s while armed",
                    pre.status["ring_shortfalls"] ?? .nan, pre.status["keyframe_s"] ?? .nan))
    }

    /// `record start` on an appliance keeping no ring: the encoder opens at the start (photo
    /// mode), the first recording loading libav. Judged against the encoder's own cold start
    /// (loading libav, opening libx264, its first packet: fresh processes, `ColdEncoderStart`),
    /// and shown against the warm one (libx264 opened again in a process that has libav).
    /// Returns the idle appliance's CPU (percent of one core) before the clip.
    private static func startWithoutRing(_ binary: URL, encoder: EncoderFigures) -> Double? {
        let cold = ColdEncoderStart.measure(section: "video.start.cold")
        if let cold {
            print(
                String(
                    format:
                        "video.start.cold        %.1f ms from loading libav to libx264's first packet in a fresh"
                        + " process, median of 7 (%.1f–%.1f ms; load %.1f, open %.1f, the first frame %.1f ms);"
                        + " warm (libav loaded, above) %.1f ms; ",
                    cold.median.total, cold.fastest, cold.slowest, cold.median.load, cold.median.open,
                    cold.median.firstFrame, encoder.coldLatency * 1000) + BenchLoad.text())
        }
        guard let child = VideoChild(binary, preRoll: 0) else { return nil }
        defer { child.stop() }
        _ = child.appliance.ask("status")
        Thread.sleep(forTimeInterval: 2)
        let idle = child.idleCPU(seconds: idleSeconds)
        guard let clip = child.record("record start --max 2", section: "video.start") else { return idle }
        let period = 1000 / Double(fps)
        if let cold {
            printLatency(
                "video.start.latency     ", clip, aim: period + cold.median.total,
                what:
                    "photo mode, no ring, the first recording: the encoder opens at the start, loading libav; one"
                    + " frame period %.1f ms + the encoder's own cold start %.1f ms (video.start.cold)",
                period,
                cold.median.total)
        }
        printLatency(
            "video.start.latency.warm", clip, aim: period + encoder.coldLatency * 1000,
            what:
                "the same start against a warm encoder: one frame period %.1f ms + libx264's open to its first"
                + " packet with libav already loaded %.1f ms (video.encode.open)", period,
            encoder.coldLatency * 1000)
        // Video mode (the sim board's switch) keeps the encoder open between clips.
        _ = child.appliance.ask("sim hold mode")
        Thread.sleep(forTimeInterval: 2)
        if let warm = child.record("record start --max 2", section: "video.start.video") {
            printLatency(
                "video.start.videomode   ", warm, aim: period + encoder.warmLatency * 1000,
                what:
                    "video mode, the encoder kept open: one frame period %.1f ms + the encoder's own %.1f ms"
                    + " (its first frame, above)", period, encoder.warmLatency * 1000)
        }
        return idle
    }

    /// One start-latency line: the figure against `aim`, and where it went (record status --json's trace).
    private static func printLatency(
        _ label: String, _ clip: VideoChild.Clip, aim: Double, what: String, _ period: Double, _ own: Double
    ) {
        let status = clip.status
        let part = { (key: String) in status[key].map { String(format: "%.1f", $0) } ?? "?" }
        print(
            label
                + (status["start_latency_ms"].map {
                    String(
                        format:
                            "%.1f ms from `record start` to the first frame in the file, %.2fx (aim <= 1x); ",
                        $0, $0 / aim) + String(format: what, period, own)
                } ?? "no figure")
                + "; trace: first frame at the recorder \(part("start_wait_ms")) ms, file+encoder open (the loop learnt)"
                + " \(part("start_open_ms")) ms (file \(part("start_file_ms")), encoder \(part("start_encoder_ms")),"
                + " waited for on the lane \(part("start_encoder_wait_ms")), muxer \(part("start_writer_ms"))),"
                + " first image \(part("start_image_ms")) ms, first encode"
                + " \(part("start_encode_ms")) ms; first frame exposed \(part("first_frame_ms")) ms from the start;"
                + " \(clip.load)")
    }

    /// utime + stime of a process, seconds (/proc/PID/stat fields 14 and 15, clock ticks).
    static func processCPU(_ pid: Int32) -> Double {
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
