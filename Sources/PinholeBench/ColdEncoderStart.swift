// Photo mode's start latency reference: loading libav, opening libx264 and its first packet, in fresh processes.

import Foundation
import PinholeCore
import PinholeLibav
import PinholeSim

/// The encoder's own latency where none is resident (photo mode: the appliance loads libav at
/// the first `record start`, issue 24): a fresh `pinhole-bench` child loads the video shim and
/// libav, opens libx264 and encodes one 1080p frame to its first packet; the median of `runs`
/// children in the same run. libav's files are in the page cache (the bench has loaded them);
/// what is cold is the process: nothing of libav is mapped or relocated in it yet.
enum ColdEncoderStart {
    /// The child's argument (`pinhole-bench video-cold-start`), handled before anything else.
    static let childArgument = "video-cold-start"

    /// Milliseconds of one cold start, and its parts.
    struct Start {
        var load: Double
        var open: Double
        var firstFrame: Double
        var total: Double { load + open + firstFrame }
    }

    /// The median of `runs` children (by total), the fastest and slowest totals; nil (printed
    /// under `section`) when a child failed.
    static func measure(runs: Int = 7, section: String) -> (median: Start, fastest: Double, slowest: Double)?
    {
        var starts: [Start] = []
        for _ in 0..<runs {
            guard let start = child(section: section) else { return nil }
            starts.append(start)
        }
        starts.sort { $0.total < $1.total }
        return (starts[starts.count / 2], starts.first?.total ?? .nan, starts.last?.total ?? .nan)
    }

    /// Runs one child and reads its `cold-start LOAD OPEN FIRST` line.
    private static func child(section: String) -> Start? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [childArgument]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else {
            print("\(section)  failed: cannot run \(CommandLine.arguments[0]) \(childArgument)")
            return nil
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 4, fields[0] == "cold-start",
            let load = Double(fields[1]), let open = Double(fields[2]), let first = Double(fields[3])
        else {
            print("\(section)  failed: the cold-start child said \(text.debugDescription)")
            return nil
        }
        return Start(load: load, open: open, firstFrame: first)
    }

    /// In the child: renders a 1080p frame (not timed), then loads libav, opens libx264 and
    /// encodes the frame to its first packet; prints the three parts in milliseconds.
    static func runChild() -> Int32 {
        var settings = VideoSettings()
        settings.size = PixelSize(width: 1920, height: 1080)
        let encoding = settings.encoderSettings(.libx264)
        let exposure = SimExposure(
            exposureTime: .milliseconds(10), gain: 1.5, lensPosition: 0.5, blurPerDioptre: 2, noiseSeed: 1)
        let frame = SimRenderer.render(
            .standard, size: encoding.size, exposure: exposure, cache: SimRenderCache())
        let backend = LibavVideoBackend()
        do throws(VideoError) {
            let start = VideoBenchmarks.monotonicSeconds()
            _ = try backend.load()
            let loaded = VideoBenchmarks.monotonicSeconds()
            let encoder = try backend.makeEncoder(encoding)
            let opened = VideoBenchmarks.monotonicSeconds()
            let packets = try encoder.encode(frame, presentationMicroseconds: 0, forceKeyframe: true)
            let end = VideoBenchmarks.monotonicSeconds()
            guard !packets.isEmpty else {
                print("libx264 gave no packet for its first frame")
                return 1
            }
            print(
                String(
                    format: "cold-start %.3f %.3f %.3f", (loaded - start) * 1000, (opened - loaded) * 1000,
                    (end - opened) * 1000))
            return 0
        } catch {
            print("\(error)")
            return 1
        }
    }
}
