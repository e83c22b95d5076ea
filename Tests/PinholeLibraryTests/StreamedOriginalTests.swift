// Originals written while they are produced: durable under their final name, indexed after, never half-written.

import Foundation
import PinholeCore
import PinholeImaging
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class StreamedOriginalTests: LibraryTestCase {
    /// Writes `jpeg` into the sink in pieces of `piece` bytes.
    private func pieces(_ jpeg: [UInt8], _ piece: Int = 100) -> (any ByteSink) throws -> Void {
        { sink in
            var start = 0
            while start < jpeg.count {
                let end = min(jpeg.count, start + piece)
                try jpeg[start..<end].withUnsafeBytes { try sink.write($0) }
                start = end
            }
        }
    }

    func testAStreamedOriginalIsWrittenThenIndexedLikeAnAdd() throws {
        let library = try openLibrary()
        let jpeg = TestJPEG.make(width: 320, height: 240, seed: 3)
        let written = try library.writeOriginal(metadata: testMetadata(), producing: pieces(jpeg))
        XCTAssertEqual(FileManager.default.contents(atPath: written.path.string).map(Array.init), jpeg)
        XCTAssertEqual(written.byteCount, Int64(jpeg.count))
        XCTAssertEqual(try library.count(.all), 0, "not indexed before add")

        let asset = try library.add(written)
        XCTAssertEqual(asset.checksum, Checksum.string(for: jpeg), "the running CRC over the pieces")
        XCTAssertEqual(asset.fileSize, Int64(jpeg.count))
        XCTAssertEqual(library.fileURLPath(of: asset), written.path)
        XCTAssertEqual(try library.assets(.all), [asset])
        let report = try library.fsck(verifyChecksums: true)
        XCTAssertTrue(report.isClean, report.lines.joined(separator: "\n"))
        let directory = written.path.removingLastComponent().string
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["\(asset.id).jpg"])
    }

    func testAProducerThatFailsLeavesNoFile() throws {
        let library = try openLibrary()
        struct Broken: Error {}
        let jpeg = TestJPEG.make()
        XCTAssertThrowsError(
            try library.writeOriginal(metadata: testMetadata()) { sink in
                try self.pieces(Array(jpeg.prefix(200)))(sink)
                throw Broken()
            }
        ) { XCTAssertTrue($0 is Broken, "\($0)") }
        let report = try library.fsck()
        XCTAssertEqual(report.tempFiles, [])
        XCTAssertEqual(report.orphanFiles, [])
        XCTAssertTrue(report.isClean, report.lines.joined(separator: "\n"))
        XCTAssertEqual(try library.count(.all), 0)
    }

    func testAdoptedInAnAlbumInOneBatchAndAMissingAlbumStillKeepsThePhoto() throws {
        let library = try openLibrary()
        let album = try library.performChanges { $0.createAlbum(title: "Trip") }.createdAlbumIDs[0]
        let inAlbum = DetailsRecorder()
        let token = library.observe(AssetQuery.all.filter(.album(album)), inAlbum.handler)

        let first = try library.add(
            try library.writeOriginal(metadata: testMetadata(), producing: pieces(TestJPEG.make(seed: 1))),
            toAlbum: "Trip")
        XCTAssertEqual(try library.assetIDs(AssetQuery.all.filter(.album(album))), [first.id])
        XCTAssertEqual(inAlbum.all.count, 1, "the photo and its album membership in one change")
        XCTAssertEqual(inAlbum.all.first?.insertedIDs, [first.id])

        let second = try library.add(
            try library.writeOriginal(metadata: testMetadata(), producing: pieces(TestJPEG.make(seed: 2))),
            toAlbum: "Gone")
        XCTAssertEqual(try library.assetIDs(AssetQuery.all.filter(.album(album))), [first.id])
        XCTAssertEqual(Set(try library.assets(.all).map(\.id)), [first.id, second.id])
        withExtendedLifetime(token) {}
    }

    func testAnUnsyncedOriginalWaitsUnderItsTemporaryNameUntilAddSettlesIt() throws {
        let library = try openLibrary()
        let jpeg = TestJPEG.make(width: 320, height: 240, seed: 4)
        let written = try library.writeOriginal(
            metadata: testMetadata(), synced: false, producing: pieces(jpeg))
        XCTAssertFalse(written.isSettled)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: written.path.string),
            "not under its name before it is synced")
        let directory = (written.path.string as NSString).deletingLastPathComponent
        let waiting = try FileManager.default.contentsOfDirectory(atPath: directory)
        XCTAssertEqual(waiting.count, 1)
        XCTAssertTrue(waiting[0].hasPrefix(".") && waiting[0].hasSuffix(".tmp"), "\(waiting)")
        XCTAssertEqual(
            FileManager.default.contents(atPath: directory + "/" + waiting[0]).map(Array.init), jpeg)

        let asset = try library.add(written)
        XCTAssertEqual(FileManager.default.contents(atPath: written.path.string).map(Array.init), jpeg)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["\(asset.id).jpg"])
        XCTAssertEqual(try library.assets(.all), [asset])
        let report = try library.fsck(verifyChecksums: true)
        XCTAssertTrue(report.isClean, report.lines.joined(separator: "\n"))
    }

    func testAnUnsyncedOriginalThatIsDiscardedOrLeftBehindIsRemoved() throws {
        let directory = try { () throws -> String in
            let library = try openLibrary()
            let discarded = try library.writeOriginal(
                metadata: testMetadata(), synced: false, producing: pieces(TestJPEG.make(seed: 8)))
            library.discard(discarded)
            let directory = (discarded.path.string as NSString).deletingLastPathComponent
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
            // Left behind by a process that stopped before its sync: never acknowledged, so the
            // next open (once this library is closed) removes it rather than adopting it.
            _ = try library.writeOriginal(
                metadata: testMetadata(), synced: false, producing: pieces(TestJPEG.make(seed: 9)))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).count, 1)
            return directory
        }()
        let reopened = try openLibrary()
        XCTAssertEqual(try reopened.count(.all), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
        XCTAssertTrue(try reopened.fsck().isClean)
    }

    func testADiscardedOriginalIsRemoved() throws {
        let library = try openLibrary()
        let written = try library.writeOriginal(metadata: testMetadata(), producing: pieces(TestJPEG.make()))
        library.discard(written)
        XCTAssertFalse(FileManager.default.fileExists(atPath: written.path.string))
        XCTAssertTrue(try library.fsck().isClean)
    }
}
