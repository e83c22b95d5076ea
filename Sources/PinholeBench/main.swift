// Pinhole's benchmarks: `make bench [SECTIONS="imaging capture library syncs memory burst"]`; figures are ratios
// against references measured in the same run.

import Foundation

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
if wanted("memory") { ApplianceMemoryBenchmark.run() }
if wanted("burst") { BurstBenchmarks.run() }
