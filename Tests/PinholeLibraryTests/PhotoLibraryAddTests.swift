// Tests of opening a library, durable adds, reading back and queries.

import Foundation
import PinholeCore
import PinholeImaging
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class PhotoLibraryAddTests: LibraryTestCase {
    func testAddWritesTheOriginalAndIndexesIt() throws {
        let library = try openLibrary()
        let jpeg = TestJPEG.make()
        let taken = WallTime(
            secondsSince1970: 1_795_000_000, nanoseconds: 250_000_000, utcOffsetSeconds: 7200)
        let asset = try library.add(jpeg: jpeg, metadata: testMetadata(taken: taken))

        XCTAssertTrue(Identifier.isValid(asset.id))
        XCTAssertEqual(asset.path, "originals/2026/11/18/\(asset.id).jpg")
        XCTAssertEqual(library.fileURLPath(of: asset).string, dir.path + "/" + asset.path)
        XCTAssertEqual(
            FileManager.default.contents(atPath: library.fileURLPath(of: asset).string).map(Array.init), jpeg)
        XCTAssertEqual(asset.created, taken)
        XCTAssertEqual(asset.created.iso8601, "2026-11-18T13:06:40.250+02:00")
        XCTAssertEqual(asset.added, clock.time)
        XCTAssertEqual(asset.fileSize, Int64(jpeg.count))
        XCTAssertEqual(asset.checksum, Checksum.string(for: jpeg))
        XCTAssertEqual(asset.cameraID, "cam0")
        XCTAssertEqual(asset.lensPosition, 1.5)
        XCTAssertEqual(try library.asset(id: asset.id), asset)
        XCTAssertEqual(try library.assets(.all), [asset])
        XCTAssertEqual(try library.count(.all), 1)
        XCTAssertTrue(try library.fsck().isClean)
        // No temporary file is left next to the original.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/originals/2026/11/18")
        XCTAssertEqual(names, ["\(asset.id).jpg"])
    }

    func testAssetsSurviveReopening() throws {
        var added: [Asset] = []
        do {
            let library = try openLibrary()
            for seed in 0..<3 {
                var metadata = testMetadata()
                metadata.gps = GPSFix(latitude: 48.85, longitude: 2.35, altitude: 35)
                added.append(try library.add(jpeg: TestJPEG.make(seed: seed), metadata: metadata))
                clock.advance(seconds: 1)
            }
        }
        let reopened = try openLibrary()
        XCTAssertTrue(reopened.recoveryReport.isClean, reopened.recoveryReport.lines.joined(separator: "\n"))
        XCTAssertEqual(try reopened.assets(.all), added)
        XCTAssertEqual(added[0].gps, GPSFix(latitude: 48.85, longitude: 2.35, altitude: 35))
    }

    func testCreationDefaultsToAddTimeWithoutCaptureTime() throws {
        let clock = ManualWallClock(WallTime(secondsSince1970: 1_700_000_000, utcOffsetSeconds: -18_000))
        let library = try PhotoLibrary.open(at: FilePath(dir.path), now: clock.now)
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata(taken: nil))
        XCTAssertEqual(asset.created, clock.time)
        XCTAssertEqual(asset.created.iso8601, "2023-11-14T17:13:20.000-05:00")
        XCTAssertTrue(asset.path.hasPrefix("originals/2023/11/14/"))
    }

    func testQueriesFilterSortAndPage() throws {
        let library = try openLibrary()
        var ids: [String] = []
        for index in 0..<10 {
            let taken = WallTime(secondsSince1970: 1_790_000_000 + Int64(9 - index) * 60)
            let camera = index % 2 == 0 ? "back" : "front"
            ids.append(
                try library.add(
                    jpeg: TestJPEG.make(seed: index), metadata: testMetadata(camera: camera, taken: taken)
                ).id)
            clock.advance(seconds: 1)
        }
        // Created ascending is the reverse of insertion here.
        XCTAssertEqual(try library.assetIDs(.all), ids.reversed())
        XCTAssertEqual(try library.assetIDs(AssetQuery.all.sorted(by: .added)), ids)
        XCTAssertEqual(
            try library.assetIDs(AssetQuery.all.sorted(by: .added, ascending: false).limit(3)),
            Array(ids.reversed().prefix(3)))
        let back = AssetQuery.all.filter(.camera("back")).sorted(by: .added)
        XCTAssertEqual(try library.assetIDs(back), [ids[0], ids[2], ids[4], ids[6], ids[8]])
        XCTAssertEqual(try library.count(back.limit(2)), 5)
        let page = try library.page(back, offset: 4, pageSize: 2)
        XCTAssertEqual(page.assets.map(\.id), [ids[8]])
        XCTAssertEqual(page.totalCount, 5)
        XCTAssertFalse(page.hasMore)
        XCTAssertEqual(try library.assetIDs(back.limit(nil, offset: 3)), [ids[6], ids[8]])
        let window = AssetQuery.all.filter(
            .created(
                from: WallTime(secondsSince1970: 1_790_000_060),
                to: WallTime(secondsSince1970: 1_790_000_180)))
        XCTAssertEqual(try library.assetIDs(window), [ids[8], ids[7]])
        XCTAssertEqual(
            try library.assetIDs(AssetQuery.all.filter(.ids([ids[3], ids[1], "nope"])).sorted(by: .added)),
            [ids[1], ids[3]])
        XCTAssertEqual(try library.count(AssetQuery.all.filter(.orientation(.right))), 0)
    }

    func testPrefixLookupNeedsAUniquePrefix() throws {
        let library = try openLibrary()
        let first = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        _ = try library.add(jpeg: TestJPEG.make(seed: 1), metadata: testMetadata())
        // Both were added in the same millisecond: they share the time-based prefix.
        XCTAssertNil(try library.asset(matching: String(first.id.prefix(8))))
        XCTAssertEqual(try library.asset(matching: String(first.id.prefix(34)))?.id, first.id)
        XCTAssertNil(try library.asset(matching: "abc"))
    }

    func testConcurrentAddsAreAllStored() throws {
        let library = try openLibrary()
        let jpeg = TestJPEG.make()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            do { _ = try library.add(jpeg: jpeg, metadata: testMetadata()) } catch { XCTFail("\(error)") }
        }
        XCTAssertEqual(try library.count(.all), 16)
        XCTAssertEqual(Set(try library.assetIDs(.all)).count, 16)
        XCTAssertTrue(try library.fsck().isClean)
    }
}
