// The machine's load average, printed beside the figures a section measured under it.

import Foundation

/// The 1-, 5- and 15-minute load averages of this machine (`/proc/loadavg`).
enum BenchLoad {
    /// "load average 1.23 0.98 0.80 on 2 cores", or a note that it could not be read.
    static func text(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> String {
        guard let line = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
            return "load average unknown (no /proc/loadavg)"
        }
        let fields = line.split(separator: " ").prefix(3).joined(separator: " ")
        return "load average \(fields) on \(cores) cores"
    }
}
