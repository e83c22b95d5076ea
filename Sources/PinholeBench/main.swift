// Pinhole's benchmarks: `make bench [SECTIONS="imaging capture library syncs memory burst confinement"]`; figures are ratios
// against references measured in the same run.

import Foundation
import PinholeSystem

// The allocator as `pinhole run` sets it, so that memory figures are the appliance's.
MallocArenas.useOneArena()

// A child of the video section: one cold encoder start in a fresh process (ColdEncoderStart).
if CommandLine.arguments.dropFirst().first == ColdEncoderStart.childArgument {
    exit(ColdEncoderStart.runChild())
}

#if DEBUG
    let buildKind = "debug build: figures are not representative, use make bench"
#else
    let buildKind = "release build"
#endif
print("Pinhole benchmarks (\(buildKind), \(ProcessInfo.processInfo.activeProcessorCount) cores)")
let only = Set(CommandLine.arguments.dropFirst())
func wanted(_ section: String) -> Bool { only.isEmpty || only.contains(section) }

if wanted("imaging") { ImagingBenchmarks.run() }
if wanted("capture") { CaptureBenchmarks.run() }
if wanted("library") {
    do { try LibraryBenchmarks.run() } catch { print("library  failed: \(error)") }
}
if wanted("syncs") { SyncBenchmarks.run() }
// Not in the default run: generating a million rows takes minutes.
if only.contains("library1m") { Library1MBenchmarks.run() }
if wanted("memory") { ApplianceMemoryBenchmark.run() }
if wanted("burst") { BurstBenchmarks.run() }
if wanted("confinement") { ConfinementBenchmark.run() }
// Not in the default run: a 60 s real-time recording and an FFmpeg reference encode.
if only.contains("video") { VideoBenchmarks.run() }
// "web" is tools/web-bench, which `make bench` runs after this program (it drives `pinhole run`,
// wrk and nginx).
