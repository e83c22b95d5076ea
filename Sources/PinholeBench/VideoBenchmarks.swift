// Video: the encoder against FFmpeg's own command line on the same raw frames, and a real-time 1080p30 recording.

import Foundation
import PinholeCore
import PinholeLibav
import PinholeSim

/// `make bench SECTIONS=video`: encode cost per frame through PinholeLibav (libx264, muxed into
/// a fragmented MP4 in memory) against `ffmpeg -c:v libx264` with the same settings on the same
/// raw frames, in the same run; then `pinhole run --board sim` recording 1080p30 with a
/// pre-roll ring in real time: frames, drops, CPU and peak memory.
enum VideoBenchmarks {
    /// Distinct rendered frames (1080p YUV 4:2:0, 3.1 MB each), encoded `loops` times over.
    static let distinctFrames = 30
    static let loops = 4

    static func run() {
        var settings = VideoSettings()  // 1920x1080, 30 fps, medium, keyframe every second
        settings.size = PixelSize(width: 1920, height: 1080)
        let encoding = settings.encoderSettings(.libx264)
        print(
            "video.settings          \(encoding.size) \(encoding.fps) fps, \(encoding.bitRate / 1000) kbit/s,"
                + " keyframe every \(encoding.keyframeInterval) frames, libx264 superfast zerolatency"
                + " \(LibavVideoBackend.x264Parameters), no B-frames;"
                + " \(BenchLoad.text())")
        let frames = renderFrames(encoding.size)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-video-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The resident figure first (opens before it would leave freed memory in malloc's heap).
        guard let ours = encodeOurs(frames, encoding),
            let raw = writeRaw(frames, directory: directory),
            let reference = encodeFFmpeg(raw, directory: directory, encoding),
            let opens = openToFirstPacket(frames, encoding)
        else { return }
        let count = Double(frames.count * loops)
        let fps = count / ours.wall
        print(
            String(
                format:
                    "video.encode.rate       %.1f frames/s encoded and muxed (wall), %.2fx the camera's %d fps",
                fps, fps / Double(encoding.fps), encoding.fps))
        print(
            String(
                format:
                    "video.encode.cpu        %.2f ms CPU a frame; ffmpeg -c:v libx264 on the same frames %.2f ms;"
                    + " %.3fx (aim <= 1.1x)", ours.cpu / count * 1000, reference.cpu / count * 1000,
                ours.cpu / reference.cpu))
        print(
            String(
                format:
                    "video.encode.wall       %.2f ms a frame; ffmpeg %.2f ms; %.3fx; output %.1f MB vs ffmpeg %.1f MB",
                ours.wall / count * 1000, reference.wall / count * 1000, ours.wall / reference.wall,
                Double(ours.bytes) / 1_048_576, Double(reference.bytes) / 1_048_576))
        let split = ours.split
        let mb = { (kB: Int) in String(format: "%.1f MB", Double(kB) / 1024) }
        print(
            String(
                format:
                    "video.encode.state      libx264 + muxer resident %.1f MB at 1080p (this process, open to the"
                    + " last frame; transparent huge pages ",
                ours.stateBytes / 1_048_576) + hugePagesText() + "): from /proc/self/smaps, libav's"
                + " \(split.newFiles) shared objects mapped by the first open \(mb(split.newObjectsKB)) (file pages"
                + " \(mb(split.newFileKB)), relocated/data/bss \(mb(split.newAnonymousKB))), anonymous memory"
                + " +\(mb(ours.anonymousKB)) (libx264's and libavcodec's state, the muxer), other \(mb(ours.otherKB))"
        )
        X264SettingsComparison.run(
            raw: raw, frames: frames.count, loops: loops, directory: directory, encoding)
        print(
            String(
                format:
                    "video.encode.open       %.1f ms from opening libx264 to its first packet, median of %d opens"
                    + " (%.1f–%.1f ms; open %.1f ms, the first frame %.1f ms, medians)",
                opens.firstPacket * 1000, opens.runs, opens.fastest * 1000, opens.slowest * 1000,
                opens.open * 1000, opens.firstFrame * 1000))
        RecordingBenchmark.run(
            encoder: RecordingBenchmark.EncoderFigures(
                stateBytes: ours.stateBytes, anonymousBytes: Double(ours.anonymousKB * 1024),
                coldLatency: opens.firstPacket, warmLatency: opens.firstFrame))
    }

    /// Frames of the simulated scene at the video size, each with its own sensor noise.
    private static func renderFrames(_ size: PixelSize) -> [RawImage] {
        let cache = SimRenderCache()
        return (0..<distinctFrames).map { index in
            let exposure = SimExposure(
                exposureTime: .milliseconds(10), gain: 1.5, lensPosition: 0.5, blurPerDioptre: 2,
                noiseSeed: UInt64(index + 1))
            return SimRenderer.render(.standard, size: size, exposure: exposure, cache: cache)
        }
    }

    struct Cost {
        var wall: Double
        var cpu: Double
        var bytes: Int
        /// Resident bytes the encoder and muxer added (ours only).
        var stateBytes: Double = 0
        /// Seconds from opening the encoder to its first packet (ours only).
        var firstPacket: Double = 0
        /// Seconds opening the encoder took, and encoding the first frame (ours only).
        var open: Double = 0
        var firstFrame: Double = 0
        /// smaps by owner at the last frame against before the open (ours only): the shared
        /// objects the open mapped, and the growth of anonymous and other memory.
        var split = MemoryMapReading.Split()
        var anonymousKB = 0
        var otherKB = 0
    }

    /// Counts the container's bytes (muxing is part of the cost; nothing is stored).
    final class CountingSink: ClipSink {
        var bytes = 0
        func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) { self.bytes += bytes.count }
        func fragmentCompleted() throws(VideoError) {}
    }

    /// The encoder's own start, the start latency's reference: opening libx264 and encoding one
    /// frame to its first packet, `runs` times in this run (one open moved 108.8 → 144.5 ms
    /// between two idle runs); medians, and the range.
    struct Opens {
        var runs: Int
        var firstPacket: Double
        var open: Double
        var firstFrame: Double
        var fastest: Double
        var slowest: Double
    }

    private static func openToFirstPacket(
        _ frames: [RawImage], _ settings: ClipEncoderSettings, runs: Int = 7
    ) -> Opens? {
        var (firstPackets, opens, firstFrames) = ([Double](), [Double](), [Double]())
        do throws(VideoError) {
            let backend = LibavVideoBackend()
            for run in 0..<runs {
                let start = monotonicSeconds()
                let encoder = try backend.makeEncoder(settings)
                let opened = monotonicSeconds()
                let packets = try encoder.encode(
                    frames[run % frames.count], presentationMicroseconds: 0, forceKeyframe: true)
                let end = monotonicSeconds()
                guard !packets.isEmpty else {
                    print("video.encode.open  failed: libx264 gave no packet for its first frame")
                    return nil
                }
                firstPackets.append(end - start)
                opens.append(opened - start)
                firstFrames.append(end - opened)
            }
        } catch {
            print("video.encode.open  failed: \(error)")
            return nil
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Opens(
            runs: runs, firstPacket: median(firstPackets), open: median(opens),
            firstFrame: median(firstFrames),
            fastest: firstPackets.min() ?? .nan, slowest: firstPackets.max() ?? .nan)
    }

    /// Whether this process may have transparent huge pages (the libx264 shim turns them off:
    /// /proc/self/status THP_enabled; the ffmpeg child below inherits the setting).
    static func hugePagesText() -> String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("THP_enabled:") }) else {
            return "unknown"
        }
        return line.hasSuffix("0") ? "off, as the encoder set them, for ffmpeg too" : "on"
    }

    /// PinholeLibav: encode every frame, write every packet into a fragmented MP4.
    private static func encodeOurs(_ frames: [RawImage], _ settings: ClipEncoderSettings) -> Cost? {
        do throws(VideoError) {
            let backend = LibavVideoBackend()
            let map0 = MemoryMapReading.read(getpid())
            let resident0 = ApplianceMemoryBenchmark.statusField(getpid(), "VmRSS") ?? 0
            let (wall0, cpu0) = (monotonicSeconds(), cpuSeconds())
            var firstPacket: Double?
            let encoder = try backend.makeEncoder(settings)
            let opened = monotonicSeconds() - wall0
            var firstFrame: Double?
            let sink = CountingSink()
            let metadata = ClipMetadata(creationTime: WallTime(secondsSince1970: 1_800_000_000))
            let writer = try backend.makeWriter(
                settings: settings, codecHeader: encoder.codecHeader, metadata: metadata, sink: sink)
            var index: Int64 = 0
            for _ in 0..<loops {
                for frame in frames {
                    let pts = index * settings.frameMicroseconds
                    let frameStart = monotonicSeconds()
                    for packet in try encoder.encode(
                        frame, presentationMicroseconds: pts, forceKeyframe: false)
                    {
                        if firstPacket == nil { firstPacket = monotonicSeconds() - wall0 }
                        try writer.write(packet)
                    }
                    if firstFrame == nil { firstFrame = monotonicSeconds() - frameStart }
                    index += 1
                }
            }
            let resident = ApplianceMemoryBenchmark.statusField(getpid(), "VmRSS") ?? 0
            let map = MemoryMapReading.read(getpid())
            for packet in try encoder.finish() { try writer.write(packet) }
            try writer.finish()
            var cost = Cost(
                wall: monotonicSeconds() - wall0, cpu: cpuSeconds() - cpu0, bytes: sink.bytes,
                stateBytes: Double(max(0, resident - resident0) * 1024), firstPacket: firstPacket ?? .nan,
                open: opened, firstFrame: firstFrame ?? .nan)
            if let map0, let map {
                let (before, after) = (map0.split(since: map0), map.split(since: map0))
                cost.split = after
                cost.anonymousKB = after.anonymousKB - before.anonymousKB
                cost.otherKB = after.otherKB - before.otherKB
            }
            return cost
        } catch {
            print("video.encode  failed: \(error)")
            return nil
        }
    }

    /// The frames as one raw YUV 4:2:0 file for `ffmpeg`; nil (and the failure printed) when it
    /// cannot be written.
    private static func writeRaw(_ frames: [RawImage], directory: URL) -> URL? {
        let raw = directory.appendingPathComponent("frames.yuv")
        var data = Data()
        for frame in frames {
            for (index, plane) in frame.planes.enumerated() {
                let width = index == 0 ? frame.width : frame.width / 2
                let height = index == 0 ? frame.height : frame.height / 2
                for row in 0..<height {
                    data.append(contentsOf: plane.bytes[(row * plane.stride)..<(row * plane.stride + width)])
                }
            }
        }
        do { try data.write(to: raw) } catch {
            print("video.encode  failed: writing \(raw.path): \(error)")
            return nil
        }
        return raw
    }

    /// `ffmpeg` on the same frames from a raw file, the same encoder settings (the shim's libx264
    /// options), a fragmented MP4 to a file; its CPU is the child's user + system time.
    private static func encodeFFmpeg(_ raw: URL, directory: URL, _ settings: ClipEncoderSettings) -> Cost? {
        let out = directory.appendingPathComponent("out.mp4")
        let arguments = X264SettingsComparison.encodeArguments(
            raw: raw, loops: loops, out: out, settings, parameters: LibavVideoBackend.x264Parameters)
        guard let child = MeasuredChild.run("/usr/bin/ffmpeg", arguments, section: "video.encode") else {
            return nil
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: out.path))?[.size] as? Int
        try? FileManager.default.removeItem(at: out)
        return Cost(wall: child.wall, cpu: child.cpu, bytes: bytes ?? 0)
    }

    static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

    /// This process's user + system CPU seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
