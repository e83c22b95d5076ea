// Storage policy "recycle" on a real, small, full file system: oldest unprotected photos make room.

import Foundation
import PinholeCore
import PinholeTestTools
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class RecycleTests: XCTestCase {
    private var mountPoint: String?

    override func tearDown() {
        SmallFileSystem.unmount(mountPoint)
    }

    /// A 6 MB tmpfs (as the storage-full tests use), or a skip where mounting is not allowed.
    private func smallFileSystem() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("pinhole-recycle-fs")
        try SmallFileSystem.mount(megabytes: 6, on: dir.path)
        mountPoint = dir.path
        return dir
    }

    func testRecycleRemovesTheOldestPhotosThatAreNeitherFavouritesNorInAnAlbum() throws {
        let dir = try smallFileSystem()
        let library = try PhotoLibrary.open(
            at: FilePath(dir.join("lib")), options: LibraryOptions(reservedBytes: 1_000_000),
            now: ManualWallClock().now
        )
        // Fill the card: photo k taken k minutes after the first.
        var ids: [String] = []
        for k in 0..<400 {
            let taken = WallTime(secondsSince1970: 1_795_000_000 + Int64(k) * 60)
            do {
                ids.append(
                    try library.add(
                        jpeg: TestJPEG.noise(width: 160, height: 120, seed: UInt64(k)),
                        metadata: testMetadata(width: 160, height: 120, taken: taken)
                    ).id)
            } catch {
                guard case LibraryError.storageFull = error else { throw error }
                break
            }
        }
        XCTAssertGreaterThan(ids.count, 8, "the card filled after a few photos")
        // The two oldest are protected: a favourite and one in an album. The third is deleted already.
        XCTAssertNoThrow(try library.setFavorite([ids[0]], true), "the reserve keeps the index writable")
        _ = try library.performChanges { batch in
            let album = batch.createAlbum(title: "Keep")
            batch.addAssets([ids[1]], to: album)
        }
        try library.delete([ids[5]])
        let before = try XCTUnwrap(POSIXFiles.freeBytes(at: dir.join("lib")))
        let photoSize = Int64(TestJPEG.noise(width: 160, height: 120, seed: 0).count)
        var logged: [String] = []
        // Room for a dozen photos: each purge and add also grows the index's write-ahead log
        // (the maintained counts' triggers write on every change), so a margin of a few photos
        // left the next add under the reserve.
        let removed = try library.recycle(untilFree: before + 12 * photoSize) { logged.append($0.id) }
        XCTAssertEqual(removed.map(\.id), logged)
        // First what was already deleted, then the oldest unprotected ones, in order.
        XCTAssertEqual(removed.first?.id, ids[5])
        XCTAssertTrue(removed.first?.wasDeleted ?? false)
        let unprotected = ids.enumerated().filter { ![0, 1, 5].contains($0.offset) }.map(\.element)
        XCTAssertGreaterThan(removed.count, 1)
        XCTAssertEqual(Array(removed.dropFirst().map(\.id)), Array(unprotected.prefix(removed.count - 1)))
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(POSIXFiles.freeBytes(at: dir.join("lib"))), before + 12 * photoSize)
        let left = Set(try library.assetIDs(AssetQuery.all.trash(.included).includingHidden()))
        XCTAssertTrue(left.contains(ids[0]) && left.contains(ids[1]), "favourite and album photo kept")
        for photo in removed { XCTAssertFalse(left.contains(photo.id)) }
        // And the card takes new photos again.
        XCTAssertNoThrow(
            try library.add(
                jpeg: TestJPEG.noise(width: 160, height: 120, seed: 999),
                metadata: testMetadata(width: 160, height: 120)))
    }

    func testClipsAreRecycledLikePhotosByTheSameRule() throws {
        let dir = try smallFileSystem()
        let library = try PhotoLibrary.open(
            at: FilePath(dir.join("lib")), options: LibraryOptions(reservedBytes: 1_000_000),
            now: ManualWallClock().now
        )
        // Three 1 MB clips, a minute apart, then a photo; the oldest clip is a favourite.
        var clips: [String] = []
        for k in 0..<3 {
            let clip = try library.beginClip(
                created: WallTime(secondsSince1970: 1_795_000_000 + Int64(k) * 60))
            try [UInt8](repeating: UInt8(k), count: 1_000_000).withUnsafeBytes { try clip.write($0) }
            clips.append(
                try clip.complete(
                    ClipRecord(
                        size: PixelSize(width: 160, height: 96), frameRate: 30, codec: "h264",
                        duration: .seconds(60))
                ).id)
        }
        let photo = try library.add(
            jpeg: TestJPEG.noise(width: 160, height: 120, seed: 1),
            metadata: testMetadata(
                width: 160, height: 120, taken: WallTime(secondsSince1970: 1_795_000_000 + 600))
        ).id
        try library.setFavorite([clips[0]], true)
        let before = try XCTUnwrap(POSIXFiles.freeBytes(at: dir.join("lib")))
        let removed = try library.recycle(untilFree: before + 1_500_000)
        XCTAssertEqual(removed.map(\.id), [clips[1], clips[2]], "the oldest unprotected first, clips or not")
        XCTAssertEqual(removed.map(\.mediaType), [.video, .video])
        XCTAssertEqual(removed.map(\.bytes), [1_000_000, 1_000_000], "a clip's bytes count")
        XCTAssertEqual(Set(try library.assetIDs(AssetQuery.all.trash(.included))), [clips[0], photo])
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(POSIXFiles.freeBytes(at: dir.join("lib"))), before + 1_500_000)
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, "\((try? library.fsck().lines) ?? [])")
    }

    func testNothingIsRemovedWhenEverythingIsProtected() throws {
        let dir = try smallFileSystem()
        let library = try PhotoLibrary.open(
            at: FilePath(dir.join("lib")), options: LibraryOptions(reservedBytes: 1_000_000),
            now: ManualWallClock().now
        )
        let id = try library.add(
            jpeg: TestJPEG.noise(width: 160, height: 120, seed: 1),
            metadata: testMetadata(width: 160, height: 120)
        ).id
        try library.setFavorite([id], true)
        XCTAssertEqual(try library.recycle(untilFree: Int64.max), [])
        XCTAssertEqual(try library.count(.all), 1)
    }
}
