// Wall time each burst shot spends in each stage after its frame (encode, file sync, index), for the burst bench.

import PinholeCore
import Synchronization

/// Sums of the wall time shots spent in each stage, recorded from the threads that run them.
final class BenchStages: Sendable {
    /// A stage of a shot after its frame was rendered.
    enum Stage: String, CaseIterable, Sendable {
        case encode = "encode (JPEG + EXIF + thumbnail, written to the file as it comes)"
        case fileSync = "file fsync, rename, directory fsync (before the index, on its thread)"
        case index = "index (SQLite commit)"
    }

    private let totals = Mutex<[Stage: (count: Int, seconds: Double)]>([:])

    /// Runs `body` and adds its wall time to `stage`.
    func time<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
        let start = monotonicNow()
        defer { add(stage, seconds: (monotonicNow() - start).seconds) }
        return try body()
    }

    /// Adds `seconds` to `stage`.
    func add(_ stage: Stage, seconds: Double) {
        totals.withLock { totals in
            let old = totals[stage] ?? (0, 0)
            totals[stage] = (old.count + 1, old.seconds + seconds)
        }
    }

    /// Mean wall time of `stage` per shot, in seconds (0 when none was recorded).
    func mean(_ stage: Stage) -> Double {
        totals.withLock { totals in totals[stage].map { $0.seconds / Double(max(1, $0.count)) } ?? 0 }
    }
}
