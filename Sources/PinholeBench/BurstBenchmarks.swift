// A 30-shot full-resolution burst and the standby wake cost on the simulated board, in real time.

import Foundation
import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeImaging
import PinholeLibrary
import PinholeSim
import SystemPackage

/// `make bench SECTIONS=burst`: a 30-shot burst of 12.3 MP frames (the simulated back camera at
/// its frame rate, the real JPEG encoder, a durable library store), as shots per second against
/// the camera's frame rate, both from the press to the last shot saved and in the steady state
/// (first saved to last saved), and against the ceiling the machine sets: cores ÷ (the
/// simulator's rendering of one burst frame + its encode on one core), measured in the same run;
/// peak resident memory during the burst; and the time from waking the camera out of standby to
/// its first usable frame, against the frame period. Every figure is printed with the load.
enum BurstBenchmarks {
    /// Runs the benchmarks and prints their figures.
    static func run() {
        do { try measure() } catch { print("burst: failed: \(error)") }
    }

    private static func measure(shots: Int = 30) throws {
        let directory = NSTemporaryDirectory() + "pinhole-bench-burst-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let library = try PhotoLibrary.open(at: FilePath(directory), now: { systemWallNow() })
        let spec = SimCameraSpec.back.startingAfter(SimCameraSpec.typicalStartupLatency)
        let world = SimWorld()
        let cores = SystemInfo.onlineCPUs
        print("burst: starting at \(BenchLoad.text(cores: cores))")

        // Reference: one photo's encode on one core (the frame rendered beforehand).
        let exposure = SimExposure(
            exposureTime: .milliseconds(10), gain: 1, lensPosition: 0.5,
            blurPerDioptre: spec.blurPerDioptre, noiseSeed: 1)
        let still = SimRenderer.render(world.scene, size: spec.pixelArraySize, exposure: exposure)
        let oneCore = PhotoEncoder(quality: 93, threads: 1)
        var encodes: [Double] = []
        for _ in 0..<3 {
            let start = monotonicNow()
            _ = try oneCore.encode(
                image: still, metadata: PhotoMetadata(pixelWidth: still.width, pixelHeight: still.height))
            encodes.append((monotonicNow() - start).seconds)
        }
        let encodeSeconds = encodes.sorted()[1]

        let loop = EventLoop(mode: .realTime)
        let stages = BenchStages()
        let board = try BuiltInBoards.simulated()
        let appliance = Appliance(
            loop: loop, board: board, gpio: SimulatedGPIO(loop: loop, lineNames: board.lineNames),
            cameras: SimulatedCameraProvider(loop: loop, world: world, specs: [spec]),
            encoder: BenchEncoder(encoder: PhotoEncoder(quality: 93), stages: stages),
            store: BenchStore(library: library, stages: stages))
        try appliance.start()
        let residentBefore = statusKB("VmRSS") ?? 0
        var outcome: Result<BurstOutcome, Error>?
        var pressedAt = Instant.zero
        var finishedAt = Instant.zero
        var wakeCost: Duration?
        loop.schedule(after: .seconds(1)) {
            // The peak from here on is the burst's.
            resetPeakResident()
            pressedAt = loop.now
            appliance.captureBurst(count: shots) { result in
                finishedAt = loop.now
                outcome = result
                // Then standby: sleep, wake, and the time to the first frame.
                loop.schedule(after: .milliseconds(300)) {
                    guard appliance.engine.enterStandby() else { return loop.stop() }
                    loop.schedule(after: .milliseconds(300)) {
                        appliance.engine.wake()
                        waitForFrame()
                    }
                }
            }
        }
        func waitForFrame() {
            if let cost = appliance.engine.lastWakeCost {
                wakeCost = cost
                return loop.stop()
            }
            loop.schedule(after: .milliseconds(1)) { waitForFrame() }
        }
        loop.run()
        let peak = statusKB("VmHWM") ?? 0
        appliance.shutdown()
        let loadAfter = BenchLoad.text(cores: cores)
        // The simulator's rendering of one still: from scratch (a new scene or exposure), and
        // as a burst's frame pays it (the same scene and exposure, its own noise); timed after
        // the burst, so that freeing its frames cannot change how the burst allocates.
        let cache = SimRenderCache()
        func renderTime(cached: Bool) -> Double {
            var times: [Double] = []
            for seed in 0..<3 as Range<UInt64> {
                var frame = exposure
                frame.noiseSeed = seed
                if !cached { frame.lensPosition += 0.01 * Double(seed + 1) }
                let start = monotonicNow()
                _ = SimRenderer.render(world.scene, size: spec.pixelArraySize, exposure: frame, cache: cache)
                times.append((monotonicNow() - start).seconds)
            }
            return times.sorted()[1]
        }
        let freshSeconds = renderTime(cached: false)
        let renderSeconds = renderTime(cached: true)

        let burst = try (outcome ?? .failure(CaptureError.failed("the burst did not finish"))).get()
        let seconds = (finishedAt - pressedAt).seconds
        let rate = Double(burst.saved.count) / seconds
        let savedTimes = burst.saved.map(\.savedAt).sorted()
        let steady =
            savedTimes.count > 1
            ? Double(savedTimes.count - 1) / (savedTimes.last! - savedTimes.first!).seconds : 0
        let frameRate = 1 / spec.frameDuration.seconds
        let reference = Double(cores) / encodeSeconds
        let frame = Double(spec.pixelArraySize.width * spec.pixelArraySize.height * 3 / 2) / 1024
        let ceiling = Double(cores) / (renderSeconds + encodeSeconds)
        print(
            "burst: \(burst.saved.count) shots of \(spec.pixelArraySize.width)×\(spec.pixelArraySize.height) in "
                + "\(format(seconds)) s (press → last saved) = \(format(rate)) shots/s = "
                + "\(format(rate / frameRate))× the camera's frame rate (\(format(frameRate)) fps)")
        print(
            "burst: steady state (first saved → last saved) \(format(steady)) shots/s = "
                + "\(format(steady / frameRate))× the camera's frame rate")
        print(
            "burst: ceiling here: cores ÷ (simulated render of a burst frame + one-core encode) = \(cores) ÷ "
                + "(\(format(renderSeconds * 1000)) ms + \(format(encodeSeconds * 1000)) ms) = \(format(ceiling)) "
                + "photos/s = \(format(ceiling / frameRate))× the frame rate; the burst ran at "
                + "\(format(steady / ceiling))× it (a new scene renders in \(format(freshSeconds * 1000)) ms; "
                + "cores ÷ encode alone = \(format(reference)) photos/s)")
        let bound =
            steady >= 0.95 * frameRate
            ? "the camera's frame rate (every frame taken)"
            : ceiling < frameRate
                ? "the CPU: the JPEG encode and the simulator's render on \(cores) shared cores"
                : burst.report.framesSkippedWaiting * 2 > burst.report.framesSkipped
                    ? "frames skipped while \(burst.report.maxWaiting) encoded shots waited for their sync and "
                        + "index (storage)"
                    : "frames skipped while \(burst.report.maxInFlight) shots were being encoded (the CPU, shared)"
        print("burst: bound by \(bound)")
        print(
            "burst: \(burst.report.atFrameRate) shots at the frame rate, then \(burst.report.framesSkipped) "
                + "frames skipped: \(burst.report.framesSkipped - burst.report.framesSkippedWaiting) while "
                + "\(burst.report.maxInFlight) were being encoded, \(burst.report.framesSkippedWaiting) while "
                + "\(burst.report.maxWaiting) encoded shots waited for their sync and index")
        print(
            "burst: peak resident \(format(Double(peak) / 1024)) MB (\(format(Double(peak - residentBefore) / 1024)) MB "
                + "above the running appliance = \(format(Double(peak - residentBefore) / frame))× one 12 MP YUV frame; "
                + "bound by the \(burst.report.maxInFlight) shots in flight, each a full-resolution copy)"
        )
        print(
            "burst: each shot's wall time after its frame: "
                + BenchStages.Stage.allCases.map { "\($0.rawValue) \(format(stages.mean($0) * 1000)) ms" }
                .joined(separator: "; "))
        print("burst: ended at \(loadAfter)")
        if let wakeCost {
            print(
                "standby: wake → first usable frame \(format(wakeCost.milliseconds)) ms = "
                    + "\(format(wakeCost.seconds / spec.frameDuration.seconds))× the frame period "
                    + "(\(format(spec.frameDuration.milliseconds)) ms; the simulated start-up latency "
                    + "\(format(spec.startupLatency.milliseconds)) ms)")
        } else {
            print("standby: the camera did not go to standby")
        }
    }

    /// A `kB` field of /proc/self/status.
    private static func statusKB(_ name: String) -> Int? {
        ApplianceMemoryBenchmark.statusField(getpid(), name)
    }

    /// Resets the kernel's peak resident set size of this process (`clear_refs` 5).
    private static func resetPeakResident() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
