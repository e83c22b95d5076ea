// MP4Fragments on hostile bytes: the seed corpus of fuzz/mp4 reads the same in memory and on disk, and no size traps.

import Foundation
import XCTest

@testable import PinholeLibrary

final class MP4FragmentsTests: XCTestCase {
    /// fuzz/mp4/corpus: a real fragmented MP4 (ffmpeg, 3 fragments), cuts of it, and hostile boxes.
    static func corpus() throws -> [(name: String, bytes: [UInt8])] {
        try HostileSeeds.load("mp4", atLeast: 30)
    }

    /// ftyp, then a box whose 64-bit size is 2^63 - 1: offset + size overflowed (a trap at open).
    func testA64BitSizeNearTheTopEndsTheWalk() throws {
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0]
        bytes += [0, 0, 0, 1] + Array("mdat".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        XCTAssertNil(MP4Fragments.whole(in: bytes))
        let directory = TemporaryDirectory()
        let path = directory.path + "/huge.mp4"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(try MP4Fragments.whole(of: path))
    }

    func testTheCorpusReadsTheSameInMemoryAndFromDisk() throws {
        let directory = TemporaryDirectory()
        var found: [String: (length: Int64, fragments: Int)] = [:]
        for (name, bytes) in try Self.corpus() {
            let path = directory.path + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let inMemory = MP4Fragments.whole(in: bytes)
            let onDisk = try MP4Fragments.whole(of: path)
            XCTAssertEqual(inMemory?.length, onDisk?.length, name)
            XCTAssertEqual(inMemory?.fragments, onDisk?.fragments, name)
            if let inMemory {
                XCTAssertLessThanOrEqual(inMemory.length, Int64(bytes.count), name)
                found[name] = inMemory
            }
        }
        XCTAssertEqual(found["real-whole.mp4"]?.length, 4411)
        XCTAssertEqual(found["real-whole.mp4"]?.fragments, 3)
        XCTAssertEqual(found["real-cut-4000.mp4"]?.length, 3333, "two whole fragments")
        XCTAssertEqual(found["real-cut-800.mp4"]?.fragments, 0, "the header alone")
        XCTAssertEqual(found["size0-mdat.mp4"]?.fragments, 0, "a box of size 0 was not finished")
        XCTAssertEqual(found["size1-int64max.mp4"]?.length, 778, "up to the moov; the huge box ends the walk")
        XCTAssertNil(found["moof-before-moov.mp4"])
        XCTAssertNil(found["not-ftyp-first.mp4"])
        XCTAssertNil(found["random-4k.mp4"])
    }
}
