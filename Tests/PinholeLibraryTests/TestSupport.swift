// Test helpers: temporary directories, a manual wall clock and real JPEG files made with cjpeg.

import Foundation
import PinholeCore
import PinholeImaging
import PinholeTestTools
import Synchronization
import XCTest

@testable import PinholeLibrary

/// A directory under the system temp directory, removed when released.
final class TemporaryDirectory {
    let path: String

    init(_ name: String = "pinhole-library-test") {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path
        var template = Array((base + "/\(name)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(cString: created!)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/relative`.
    func join(_ relative: String) -> String { path + "/" + relative }
}

/// A wall clock that only moves when the test says so.
final class ManualWallClock: Sendable {
    private let current: Mutex<WallTime>

    init(_ start: WallTime = WallTime(secondsSince1970: 1_795_000_000, utcOffsetSeconds: 3600)) {
        current = Mutex(start)
    }

    /// The current time.
    var time: WallTime { current.withLock { $0 } }

    /// A `now` closure for `PhotoLibrary.open`.
    var now: @Sendable () -> WallTime { { [self] in self.time } }

    /// Moves the clock forward.
    func advance(seconds: Int64) {
        current.withLock { $0 = $0.adding(.seconds(seconds)) }
    }
}

/// Real JPEG files for tests, made by libjpeg-turbo's `cjpeg` from a generated PPM.
enum TestJPEG {
    private static let cache = Mutex<[String: [UInt8]]>([:])

    /// A baseline JPEG of `width`×`height` with a gradient that depends on `seed`.
    static func make(width: Int = 64, height: Int = 48, seed: Int = 0) -> [UInt8] {
        let key = "\(width)x\(height)/\(seed)"
        if let cached = cache.withLock({ $0[key] }) { return cached }
        var ppm = Array("P6\n\(width) \(height)\n255\n".utf8)
        ppm.reserveCapacity(ppm.count + width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                ppm.append(UInt8(truncatingIfNeeded: x * 255 / max(1, width - 1) + seed * 37))
                ppm.append(UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1) + seed * 11))
                ppm.append(UInt8(truncatingIfNeeded: (x + y + seed * 5) & 0xFF))
            }
        }
        let jpeg = run("/usr/bin/cjpeg", ["-quality", "85"], input: ppm)
        precondition(jpeg.count > 100 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "cjpeg produced no JPEG")
        cache.withLock { $0[key] = jpeg }
        return jpeg
    }

    /// A JPEG of seeded noise (compresses badly: large files for the storage-full test).
    static func noise(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var ppm = Array("P6\n\(width) \(height)\n255\n".utf8)
        var state = seed
        for _ in 0..<(width * height * 3) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            ppm.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        return run("/usr/bin/cjpeg", ["-quality", "95"], input: ppm)
    }

    /// Decodes a JPEG file with `djpeg`; returns the PPM's width and height, or nil if it does not decode.
    static func decodedSize(ofFile path: String) -> (Int, Int)? {
        guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
        let ppm = run("/usr/bin/djpeg", ["-ppm"], input: Array(bytes), allowFailure: true)
        let header = String(decoding: ppm.prefix(32), as: UTF8.self).split(whereSeparator: {
            $0 == "\n" || $0 == " "
        })
        guard header.count >= 3, header[0] == "P6", let w = Int(header[1]), let h = Int(header[2]) else {
            return nil
        }
        return (w, h)
    }

    /// Runs a tool with `input` on stdin and returns its stdout.
    static func run(_ tool: String, _ arguments: [String], input: [UInt8], allowFailure: Bool = false)
        -> [UInt8]
    {
        let result: ExternalTool.Result
        do { result = try ExternalTool.run(tool, arguments, input: input) } catch {
            preconditionFailure("cannot run \(tool): \(error)")
        }
        if !allowFailure { precondition(result.status == 0, "\(tool) failed: \(result.errorText)") }
        return result.status == 0 ? result.output : []
    }
}

/// Metadata for a test photo.
func testMetadata(
    width: Int = 64, height: Int = 48, camera: String? = "cam0",
    taken: WallTime? = nil, orientation: Orientation = .up
) -> PhotoMetadata {
    var metadata = PhotoMetadata(pixelWidth: width, pixelHeight: height, orientation: orientation)
    metadata.cameraID = camera
    metadata.make = "Pinhole"
    metadata.model = "Sim"
    metadata.captureTime = taken
    metadata.exposureTime = 0.01
    metadata.iso = 200
    metadata.lensPosition = 1.5
    metadata.flashFired = false
    return metadata
}

/// Writes `contents` to `path`, failing the test run if it cannot.
func writeFile(_ path: String, contents: Data) {
    precondition(FileManager.default.createFile(atPath: path, contents: contents), "cannot write \(path)")
}

/// The fsck report of `library` as text, for assertion messages.
func fsckText(_ library: PhotoLibrary) -> String {
    (try? library.fsck().lines.joined(separator: "\n")) ?? "fsck failed"
}

/// A JPEG with full EXIF made by the imaging module's photo encoder.
func exifJPEG(width: Int = 96, height: Int = 64, metadata: PhotoMetadata, seed: Int = 0) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 3
            bytes[i] = UInt8(truncatingIfNeeded: x * 2 + seed * 40)
            bytes[i + 1] = UInt8(truncatingIfNeeded: y * 3)
            bytes[i + 2] = UInt8(truncatingIfNeeded: seed * 90)
        }
    }
    let image = RawImage(
        format: .rgb888, width: width, height: height,
        planes: [ImagePlane(bytes: bytes, stride: width * 3)])
    return try PhotoEncoder(quality: 85, threads: 1).encode(image: image, metadata: metadata)
}

/// Deterministic pseudo-random numbers (SplitMix64) for reproducible fault injection.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `range`.
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

/// The built `pinhole` binary next to the test bundle (this target depends on `pinhole`, so
/// building the tests builds it), or an error naming `test`.
func pinholeBinary(for test: String) throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("pinhole")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    struct MissingBinary: Error, CustomStringConvertible {
        var test: String
        var description: String {
            "\(test): the pinhole binary is not next to the tests (swift build --build-tests)"
        }
    }
    throw MissingBinary(test: test)
}

/// Sets or clears a file attribute with chattr(1) (e2fsprogs): `+i` makes a file or folder
/// immutable, even to root, so that removing it (or from it) fails.
func chattr(_ change: String, _ path: String, check: Bool = true) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = [change, path]
    try process.run()
    process.waitUntilExit()
    if check { XCTAssertEqual(process.terminationStatus, 0, "chattr \(change) \(path)") }
}
