// The thumbnail reference measured in the same run: Pillow(-SIMD)'s draft-mode thumbnail()
// of the same JPEG file, through tools/bench/pillow-thumbnail.py.

import Foundation

/// Runs `tools/bench/pillow-thumbnail.py` with the interpreter `tools/setup --bench`
/// installed (`PINHOLE_BENCH_PYTHON`, set by `make bench`).
enum PillowReference {
    /// One measurement: the median seconds of one thumbnail and which library made it.
    struct Figure {
        var seconds: Double
        var library: String
    }

    /// Why there is no reference figure.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    static let script = "tools/bench/pillow-thumbnail.py"

    /// The median of `runs` thumbnails of `jpeg` to fit `width`×`height`.
    static func measure(jpeg: [UInt8], width: Int, height: Int, runs: Int) throws -> Figure {
        let environment = ProcessInfo.processInfo.environment
        guard let python = environment["PINHOLE_BENCH_PYTHON"], !python.isEmpty else {
            throw Unavailable(description: "PINHOLE_BENCH_PYTHON is not set (make bench sets it up)")
        }
        guard FileManager.default.fileExists(atPath: script) else {
            throw Unavailable(description: "\(script) not found: run from the repository root")
        }
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("pinhole-bench-thumbnail-\(getpid()).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(jpeg).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, file.path, "\(width)", "\(height)", "\(runs)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let words = String(decoding: data, as: UTF8.self).split(separator: " ", maxSplits: 1)
        guard process.terminationStatus == 0, words.count == 2, let seconds = Double(words[0]) else {
            throw Unavailable(
                description:
                    "\(script) exited \(process.terminationStatus): \(String(decoding: data, as: UTF8.self))")
        }
        return Figure(seconds: seconds, library: words[1].trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
