// Helpers of the library benchmarks: timing, reporting, raw POSIX writes, identifiers, a fixed clock.

import PinholeCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Helpers shared by the library benchmarks (namespaced so they cannot clash with other benchmarks).
enum LibraryBench {
    /// A benchmark that could not run.
    struct BenchFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A wall clock that advances a millisecond per reading (distinct, reproducible times).
    final class BenchClock: Sendable {
        private let current = Mutex(WallTime(secondsSince1970: 1_790_000_000))

        var now: @Sendable () -> WallTime {
            { [self] in
                current.withLock {
                    $0 = $0.adding(.milliseconds(1)); return $0
                }
            }
        }
    }

    /// Deterministic pseudo-random numbers (SplitMix64).
    struct SplitMix64 {
        private var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A UUID version 7 string for `millis` (the library's identifier format).
    static func uuid7(millis: Int64, random: inout SplitMix64) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: UInt64(millis) >> (8 * (5 - index))) }
        let a = random.next(), b = random.next()
        for index in 6..<16 {
            bytes[index] = UInt8(truncatingIfNeeded: (index < 11 ? a : b) >> (8 * (index % 8)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }

    /// Times `body` once.
    static func time(_ body: () throws -> Void) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return clock.now - start
    }

    /// Seconds as a Double.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Prints one figure: time per operation, operations per second, and the ratio to the reference.
    static func report(
        _ name: String, _ measured: Duration, per count: Int, reference: Duration, referenceName: String
    ) {
        let each = seconds(measured) / Double(max(1, count))
        let rate = each > 0 ? 1 / each : 0
        let ratio = seconds(reference) > 0 ? seconds(measured) / seconds(reference) : 0
        let eachText = each >= 0.001 ? "\(rounded(each * 1000)) ms" : "\(rounded(each * 1_000_000)) µs"
        print("library: \(name): \(eachText) each, \(rounded(rate)) /s; \(rounded(ratio))× \(referenceName)")
    }

    private static func rounded(_ value: Double) -> String {
        let scaled = (value * 100).rounded() / 100
        return "\(scaled)"
    }

    /// A fresh directory under /tmp.
    static func makeTemporaryDirectory() -> String {
        var template = Array("/tmp/pinhole-bench-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// mkdir -p.
    static func makeDirectory(_ path: String) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            _ = mkdir(current, 0o755)
        }
    }

    /// Sets the modification time of `directories` an hour back (photos taken long ago: the
    /// library only trusts directories whose time has settled).
    static func ageDirectories(_ directories: [String]) {
        let past = Glibc.time(nil) - 3600
        var times = [timeval(tv_sec: past, tv_usec: 0), timeval(tv_sec: past, tv_usec: 0)]
        for directory in directories { _ = utimes(directory, &times) }
    }

    /// rm -rf (benchmark scratch only).
    static func removeTree(_ path: String) {
        guard let dir = opendir(path) else { _ = unlink(path); return }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            let child = path + "/" + name
            if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { _ = unlink(child) }
        }
        closedir(dir)
        _ = rmdir(path)
    }

    /// Reads a whole file (the reference for cached thumbnails).
    static func rawRead(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw BenchFailure("cannot open \(path)") }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// Writes a file without syncing (setup only).
    static func rawWrite(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchFailure("cannot create \(path)") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw BenchFailure("short write to \(path)") }
    }

    /// The durable write sequence by hand: temp file, write, fsync, rename, directory fsync.
    static func rawDurableWrite(_ bytes: [UInt8], to path: String, directory: String) throws {
        let temp = path + ".tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchFailure("cannot create \(temp)") }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        rename(temp, path)
        let dfd = open(directory, O_RDONLY | O_DIRECTORY)
        fsync(dfd)
        close(dfd)
    }
}
