// Pinhole's benchmarks: `make bench`. Figures are ratios against references measured in the same run.

import Foundation

#if DEBUG
let buildKind = "debug build: figures are not representative, use make bench"
#else
let buildKind = "release build"
#endif
print("Pinhole benchmarks (\(buildKind), \(ProcessInfo.processInfo.activeProcessorCount) cores)")
ApplianceMemoryBenchmark.run()
