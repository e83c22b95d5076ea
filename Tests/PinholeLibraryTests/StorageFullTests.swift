// Storage full: on a small tmpfs, a failed add leaves the library consistent and usable.

import Foundation
import PinholeCore
import PinholeTestTools
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class StorageFullTests: XCTestCase {
    private var mountPoint: String?

    override func tearDown() {
        SmallFileSystem.unmount(mountPoint)
    }

    /// A 2 MB tmpfs mounted on a fresh directory (unmounted in tearDown), or a skip.
    private func smallFileSystem() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("pinhole-small-fs")
        try SmallFileSystem.mount(megabytes: 2, on: dir.path)
        mountPoint = dir.path
        return dir
    }

    func testWithoutAReserveTheRealENOSPCIsReportedAndNothingPartialIsLeft() throws {
        let dir = try smallFileSystem()
        let library = try PhotoLibrary.open(
            at: FilePath(dir.join("lib")), options: LibraryOptions(reservedBytes: 0),
            now: ManualWallClock().now)
        var stored: [String] = []
        var failure: Error?
        for seed in 0..<100 {
            do {
                stored.append(
                    try library.add(
                        jpeg: TestJPEG.noise(width: 200, height: 150, seed: UInt64(seed)),
                        metadata: testMetadata(width: 200, height: 150)
                    ).id)
            } catch {
                failure = error
                break
            }
        }
        guard case .storageFull? = failure as? LibraryError else {
            return XCTFail("expected storage full, got \(String(describing: failure))")
        }
        let report = try library.fsck()
        XCTAssertEqual(report.tempFiles, [], "the partial write was removed")
        XCTAssertEqual(report.orphanFiles, [], "an original whose indexing failed was removed")
        XCTAssertEqual(try library.assetIDs(AssetQuery.all.sorted(by: .added)), stored)
    }

    func testAddOnAFullFileSystemFailsClearlyAndTheLibraryStaysUsable() throws {
        let dir = try smallFileSystem()
        let options = LibraryOptions(reservedBytes: 200_000)
        let library = try PhotoLibrary.open(
            at: FilePath(dir.join("lib")), options: options, now: ManualWallClock().now)
        var stored: [Asset] = []
        var failure: LibraryError?
        for seed in 0..<100 {
            do {
                stored.append(
                    try library.add(
                        jpeg: TestJPEG.noise(width: 200, height: 150, seed: UInt64(seed)),
                        metadata: testMetadata(width: 200, height: 150)))
            } catch let error as LibraryError {
                failure = error
                break
            }
        }
        let error = try XCTUnwrap(failure, "2 MB never filled up")
        guard case let .storageFull(mount, bytesLeft, reserved) = error else {
            return XCTFail("not storage full: \(error)")
        }
        XCTAssertEqual(mount, FilePath(dir.path))
        XCTAssertLessThan(bytesLeft, 200_000 + 100_000)
        XCTAssertTrue(
            error.description.hasPrefix("storage full: the photo was not saved; free space on \(dir.path) ("),
            error.description)
        // The reserve refused it: the message says so, or "0.1 MB free" alone would not explain it.
        XCTAssertEqual(reserved, 200_000)
        XCTAssertTrue(
            error.description.hasSuffix(
                " MB free; the library keeps 0.2 MB in reserve so that it stays usable; deleted photos and clips"
                    + " take space until `library purge --all` empties Recently Deleted)"),
            error.description)
        XCTAssertGreaterThan(stored.count, 10)

        // Consistent: exactly the photos reported stored, no partial files, all readable.
        XCTAssertEqual(try library.assetIDs(AssetQuery.all.sorted(by: .added)), stored.map(\.id))
        let report = try library.fsck(verifyChecksums: true)
        XCTAssertTrue(report.isClean, report.lines.joined(separator: "\n"))

        // Usable: deleting works on the full file system (the reserve keeps the index writable);
        // purging five photos frees room and adding works again.
        let victims = stored.prefix(5).map(\.id)
        try library.delete(victims)
        try library.purge(victims)
        XCTAssertNoThrow(
            try library.add(
                jpeg: TestJPEG.noise(width: 200, height: 150, seed: 999),
                metadata: testMetadata(width: 200, height: 150)))
        XCTAssertTrue(try library.fsck().isClean)
        let reopened = try PhotoLibrary.open(
            at: FilePath(dir.join("lib")), options: options, now: ManualWallClock().now)
        XCTAssertTrue(reopened.recoveryReport.isClean, reopened.recoveryReport.lines.joined(separator: "\n"))
    }
}
