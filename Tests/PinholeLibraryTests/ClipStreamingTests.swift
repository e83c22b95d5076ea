// Clips leave the library in bounded pieces: an export streams them, it never reads one whole.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class ClipStreamingTests: XCTestCase {
    let chunk = 64 << 10

    /// A recorded clip of `bytes` bytes (a pattern that differs from piece to piece).
    func clip(of bytes: Int, in library: PhotoLibrary) throws -> Asset {
        let clip = try library.beginClip(created: nil)
        var left = bytes
        var index = 0
        while left > 0 {
            let piece = (0..<min(left, 100_000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            try piece.withUnsafeBytes { try clip.write($0) }
            try clip.sync()
            left -= piece.count
            index += 1
        }
        return try clip.complete(
            ClipRecord(
                size: PixelSize(width: 160, height: 96), frameRate: 30, codec: "h264", duration: .seconds(60))
        )
    }

    func testAnExportStreamsAClipInPiecesWhateverItsSize() throws {
        let directory = TemporaryDirectory()
        let clock = ManualWallClock()
        var options = LibraryOptions(reservedBytes: 0)
        options.streamChunkBytes = chunk
        let library = try PhotoLibrary.open(
            at: FilePath(directory.path + "/library"), options: options, now: clock.now)
        let out = directory.path + "/stick"
        for size in [1_000_000, 4_000_000] {
            let asset = try clip(of: size, in: library)
            let before = library.streamed.withLock { $0 }
            let written = try library.export(.all, to: FilePath(out)).written
            XCTAssertEqual(written.count, 1, "the other clip is already there")
            let read = library.streamed.withLock { $0 }
            XCTAssertEqual(read.bytes - before.bytes, Int64(size))
            XCTAssertEqual(read.reads - before.reads, (size + chunk - 1) / chunk, "one read per piece")
            XCTAssertEqual(read.largestRead, chunk, "the largest piece held is the chunk, not the clip")
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: written[0])),
                try Data(contentsOf: URL(fileURLWithPath: library.fileURLPath(of: asset).string)))
        }
        // A redone export compares piece by piece: a torn copy is replaced, a whole one kept.
        let assets = try library.assets(.all)
        let torn = out + "/" + PhotoLibrary.exportName(of: assets[0])
        XCTAssertEqual(truncate(torn, 500_000), 0)
        let redone = try library.writeExport(
            assets, to: out, version: .original, replacingDifferent: true, progress: { _ in true })
        XCTAssertEqual(redone.replaced, [torn])
        XCTAssertEqual(redone.skipped.count, 1)
        for asset in assets {
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: out + "/" + PhotoLibrary.exportName(of: asset))),
                try Data(contentsOf: URL(fileURLWithPath: library.fileURLPath(of: asset).string)))
        }
        XCTAssertEqual(library.streamed.withLock { $0.largestRead }, chunk)
        XCTAssertTrue(
            try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.hasSuffix(".tmp") })
    }
}
