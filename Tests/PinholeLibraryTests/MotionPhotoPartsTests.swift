// Motion Photos on hostile bytes: fuzz/motionphoto's seeds found in memory and imported from a stick, never a trap.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class MotionPhotoPartsTests: XCTestCase {
    /// fuzz/motionphoto/corpus: a real Motion Photo (a JPEG, Pinhole's XMP, ffmpeg's MP4 of
    /// 4411 bytes appended) and hostile variants of its numbers, segments and markup.
    static func corpus() throws -> [(name: String, bytes: [UInt8])] {
        try HostileSeeds.load("motionphoto", atLeast: 25)
    }

    func testTheSeedsAreFoundOnlyWhereTheirNumbersFitTheFile() throws {
        var found: [String: MotionPhotoParts] = [:]
        for (name, bytes) in try Self.corpus() {
            let result = MotionPhotoParts.find(size: Int64(bytes.count)) { offset, count in
                let start = Int(offset)
                return start >= bytes.count ? [] : Array(bytes[start..<min(start + count, bytes.count)])
            }
            guard let (parts, segment) = result else { continue }
            XCTAssertTrue(segment.lowerBound >= 2 && segment.upperBound < parts.videoOffset, name)
            XCTAssertEqual(parts.videoOffset + parts.videoLength, Int64(bytes.count), name)
            found[name] = parts
        }
        XCTAssertEqual(found["real.MP.jpg"]?.videoLength, 4411)
        XCTAssertEqual(found["real.MP.jpg"]?.presentationMicroseconds, 1_500_000)
        XCTAssertEqual(found["no-timestamp.MP.jpg"]?.videoLength, 4411)
        XCTAssertNil(found["no-timestamp.MP.jpg"]?.presentationMicroseconds ?? nil)
        XCTAssertNotNil(found["timestamp-huge.MP.jpg"], "a time past Int64 is no time, the video is kept")
        XCTAssertNil(found["timestamp-huge.MP.jpg"]?.presentationMicroseconds ?? nil)
        for name in [
            "length-too-long.MP.jpg", "length-too-short.MP.jpg", "length-huge.MP.jpg",
            "length-overflow.MP.jpg",
            "length-negative.MP.jpg", "length-nan.MP.jpg", "segment-past-end.MP.jpg",
            "not-ftyp-at-offset.MP.jpg",
            "xmp-after-sos.MP.jpg", "no-motionphoto-flag.MP.jpg", "random.MP.jpg", "empty.MP.jpg",
        ] {
            XCTAssertNil(found[name], "\(name) is no Motion Photo")
        }
    }

    /// The seeds on a stick: each is imported (a Live Photo, or a plain photo when it is no
    /// Motion Photo) or refused with its reason; nothing traps and the library stays clean.
    func testEverySeedOnAStickIsImportedOrRefusedWithItsReason() throws {
        let directory = TemporaryDirectory()
        let (library, _) = try HostileSeeds.importFromStick(try Self.corpus(), into: directory)
        XCTAssertGreaterThanOrEqual(try library.count(library.query(for: .livePhotos)), 1, "the real one")
    }
}
