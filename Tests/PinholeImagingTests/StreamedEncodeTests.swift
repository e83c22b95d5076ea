// The streamed encoder: the photo reaches its sink band by band, never whole, and a failing sink stops it.

import Foundation
import PinholeCore
@testable import PinholeImaging
import XCTest

/// Keeps every chunk's size and the bytes; fails from the `failAt`-th write on when set.
private final class RecordingSink: ByteSink {
    var chunks: [Int] = []
    var bytes: [UInt8] = []
    var failAt: Int?
    var writesAfterFailure = 0
    struct Full: Error {}

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        if let failAt, chunks.count >= failAt {
            if chunks.count > failAt { writesAfterFailure += 1 }
            chunks.append(0)
            throw Full()
        }
        chunks.append(chunk.count)
        bytes.append(contentsOf: chunk)
    }
}

final class StreamedEncodeTests: XCTestCase {
    static let source = TestImages.yuv420(width: 1012, height: 1520)

    func testThePhotoReachesTheSinkInBandsNeverWhole() throws {
        let sink = RecordingSink()
        try PhotoEncoder(threads: 2).encode(
            image: Self.source, metadata: ExifRoundTripTests.fullMetadata(), into: sink)
        let bands = (1520 + JPEGEncoder.streamBandRows - 1) / JPEGEncoder.streamBandRows
        XCTAssertEqual(bands, 6)
        XCTAssertGreaterThanOrEqual(sink.chunks.count, bands, "at least one write per band")
        XCTAssertLessThan(sink.chunks.max() ?? 0, sink.bytes.count / 3, "no write holds most of the photo")
        let layout = try JPEGLayout(sink.bytes)
        XCTAssertEqual(layout.height, 1520)
        XCTAssertEqual(layout.segments.first?.marker, 0xE1, "EXIF APP1 right after SOI")
        XCTAssertFalse(layout.segments.contains { $0.marker == 0xE0 }, "no JFIF beside EXIF")
        XCTAssertEqual(restartMarkers(in: sink.bytes, from: layout.scanStart).count, bands - 1)
        XCTAssertEqual(Array(sink.bytes.suffix(2)), [0xFF, 0xD9])
        let reference = try JPEGDecoder.decode(JPEGEncoder(quality: 93, threads: 1).encode(Self.source))
        XCTAssertLessThanOrEqual(TestImages.maxDifference(try JPEGDecoder.decode(sink.bytes), reference), 1)
    }

    func testStreamingOnOneThreadGivesTheSameFile() throws {
        let one = RecordingSink(), four = RecordingSink()
        let metadata = ExifRoundTripTests.fullMetadata()
        try PhotoEncoder(threads: 1).encode(image: Self.source, metadata: metadata, into: one)
        try PhotoEncoder(threads: 4).encode(image: Self.source, metadata: metadata, into: four)
        XCTAssertEqual(one.bytes, four.bytes, "bands are written in order whichever thread finishes first")
        XCTAssertEqual(try PhotoEncoder(threads: 3).encode(image: Self.source, metadata: metadata), one.bytes)
    }

    func testAFailingSinkStopsTheEncoderAndItsErrorIsThrown() throws {
        for failAt in [0, 1, 3] {
            let sink = RecordingSink()
            sink.failAt = failAt
            XCTAssertThrowsError(
                try PhotoEncoder(threads: 2).encode(
                    image: Self.source, metadata: ExifRoundTripTests.fullMetadata(), into: sink)
            ) { error in
                XCTAssertTrue(error is RecordingSink.Full, "\(error)")
            }
            XCTAssertEqual(sink.writesAfterFailure, 0, "nothing written after the sink failed (at \(failAt))")
        }
    }

    private func restartMarkers(in jpeg: [UInt8], from start: Int) -> [UInt8] {
        var markers: [UInt8] = []
        var index = start
        while index + 1 < jpeg.count {
            if jpeg[index] == 0xFF, (0xD0...0xD7).contains(jpeg[index + 1]) {
                markers.append(jpeg[index + 1])
            }
            index += 1
        }
        return markers
    }
}
