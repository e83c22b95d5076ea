// Pinhole's benchmarks: `make bench`. Figures are ratios against references measured in the same run.

import Foundation

print("Pinhole benchmarks (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
ApplianceMemoryBenchmark.run()
