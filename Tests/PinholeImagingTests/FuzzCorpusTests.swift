// Replays the fuzz seed corpus (fuzz/corpus) through the readers the fuzz targets exercise.

import Foundation
import PinholeCore
@testable import PinholeImaging
import XCTest

final class FuzzCorpusTests: XCTestCase {
    private func corpus() throws -> [(name: String, bytes: [UInt8])] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map { ($0, [UInt8](try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    func testEverySeedIsReadAndDecoded() throws {
        let seeds = try corpus()
        XCTAssertGreaterThanOrEqual(seeds.count, 6)
        for (name, bytes) in seeds {
            let metadata = try ExifReader.read(jpeg: bytes)
            let image = try JPEGDecoder.decode(bytes)
            XCTAssertEqual(image.width, metadata.pixelWidth, name)
            XCTAssertEqual(image.height, metadata.pixelHeight, name)
            _ = try Thumbnailer.render(
                jpeg: bytes, size: PixelSize(width: 24, height: 16), mode: .aspectFill,
                orientation: .rightMirrored)
        }
    }

    func testBigEndianExifFromExiftoolIsRead() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try corpus().map { ($0.name, $0.bytes) })
        let big = try ExifReader.read(jpeg: XCTUnwrap(seeds["motorola-exif.jpg"]))
        let little = try ExifReader.read(jpeg: XCTUnwrap(seeds["photo-full-exif.jpg"]))
        XCTAssertEqual(big.make, "Pinhole")
        // exiftool re-encodes some rationals with its own precision when it rewrites them.
        XCTAssertEqual(big.focalLength!, little.focalLength!, accuracy: 0.05)
        XCTAssertEqual(big.gps!.longitude, little.gps!.longitude, accuracy: 1e-6)
        var (b, l) = (big, little)
        (b.focalLength, l.focalLength, b.gps, l.gps) = (nil, nil, nil, nil)
        XCTAssertEqual(b, l, "the same tags rewritten big-endian by exiftool read back the same")
        XCTAssertNotNil(try ExifReader.thumbnail(jpeg: XCTUnwrap(seeds["motorola-exif.jpg"])))
    }
}
