// Tests of the POSIX layer's durable writes and renames: no replacing, no leftovers, no leaks.

import PinholeSystem
import SystemPackage
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class DurableFilesTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = "/tmp/pinhole-system-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        XCTAssertEqual(mkdir(directory, 0o755), 0)
    }

    override func tearDown() {
        for name in entries() { unlink(directory + "/" + name) }
        rmdir(directory)
        super.tearDown()
    }

    private func entries() -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    private func contents(_ name: String) throws -> [UInt8] {
        let fd = try FileDescriptor.open(FilePath(directory + "/" + name), .readOnly)
        return try fd.closeAfter { try fd.readToEnd() }
    }

    /// Descriptors this process has open (the entries of /proc/self/fd).
    private func openDescriptors() -> Int {
        guard let dir = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        while readdir(dir) != nil { count += 1 }
        return count
    }

    func testWriteCreatesTheFileWithItsBytesAndLeavesNoTemporaryFile() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        try DurableFiles.write(bytes, to: FilePath(directory + "/photo.jpg"))
        XCTAssertEqual(try contents("photo.jpg"), bytes)
        XCTAssertEqual(entries(), ["photo.jpg"])
    }

    /// On ext4 (and tmpfs, xfs, btrfs…) a durable write is two syncs: the file's data, then
    /// its name in the directory. The second fsync of the file after the rename is for vfat and
    /// exFAT only (`needsSyncAfterRename`); `make powercut` checks both on real file systems.
    func testADurableWriteSyncsTheFileOnceAndItsDirectoryOnce() throws {
        let fd = try FileDescriptor.open(FilePath(directory), .readOnly, options: .directory)
        let needsSecond = try fd.closeAfter { fd.needsSyncAfterRename }
        XCTAssertFalse(needsSecond, "the test directory is on ext4 or tmpfs, not vfat")
        let (_, syncs) = try SyncCount.counting {
            try DurableFiles.write([1, 2, 3], to: FilePath(directory + "/a"))
        }
        XCTAssertEqual(syncs, SyncCount(counts: [.file: 1, .directory: 1]), "\(syncs)")
        let (_, removal) = try SyncCount.counting { try DurableFiles.remove(FilePath(directory + "/a")) }
        XCTAssertEqual(removal, SyncCount(counts: [.directory: 1]), "\(removal)")
    }

    func testWriteWithoutReplaceRefusesAnExistingFileAndKeepsIt() throws {
        try DurableFiles.write([1, 2, 3], to: FilePath(directory + "/photo.jpg"))
        let before = openDescriptors()
        XCTAssertThrowsError(try DurableFiles.write([9], to: FilePath(directory + "/photo.jpg"))) { error in
            XCTAssertEqual((error as? SystemFailure)?.errno, .fileExists, "\(error)")
            XCTAssertEqual((error as? SystemFailure)?.operation, "rename")
        }
        XCTAssertEqual(try contents("photo.jpg"), [1, 2, 3])
        XCTAssertEqual(entries(), ["photo.jpg"], "the temporary file is removed")
        XCTAssertEqual(openDescriptors(), before, "every descriptor is closed on the failing path")
    }

    func testWriteWithReplaceReplaces() throws {
        try DurableFiles.write([1, 2, 3], to: FilePath(directory + "/settings.toml"))
        try DurableFiles.write([4], to: FilePath(directory + "/settings.toml"), replace: true)
        XCTAssertEqual(try contents("settings.toml"), [4])
        XCTAssertEqual(entries(), ["settings.toml"])
    }

    func testAFailedOpenLeavesNothingOpen() throws {
        let before = openDescriptors()
        XCTAssertThrowsError(try DurableFiles.write([1], to: FilePath(directory + "/missing/photo.jpg"))) {
            error in
            XCTAssertEqual((error as? SystemFailure)?.errno, .noSuchFileOrDirectory, "\(error)")
        }
        XCTAssertThrowsError(try DurableFiles.syncDirectory(FilePath(directory + "/missing")))
        XCTAssertEqual(openDescriptors(), before)
    }

    func testRenameWithoutReplaceNeverReplaces() throws {
        try DurableFiles.write([1], to: FilePath(directory + "/a"))
        try DurableFiles.write([2], to: FilePath(directory + "/b"))
        XCTAssertThrowsError(
            try DurableFiles.rename(
                FilePath(directory + "/a"), to: FilePath(directory + "/b"), replace: false)
        ) {
            XCTAssertEqual(($0 as? SystemFailure)?.errno, .fileExists, "\($0)")
        }
        XCTAssertEqual(try contents("a"), [1])
        XCTAssertEqual(try contents("b"), [2])
        try DurableFiles.rename(FilePath(directory + "/a"), to: FilePath(directory + "/c"), replace: false)
        XCTAssertEqual(entries(), ["b", "c"])
        try DurableFiles.rename(FilePath(directory + "/c"), to: FilePath(directory + "/b"), replace: true)
        XCTAssertEqual(entries(), ["b"])
        XCTAssertEqual(try contents("b"), [1])
    }

    func testTemporaryNamesAreHiddenUniqueAndNextToTheFile() {
        let first = DurableFiles.temporaryPath(for: "/lib/2026/photo.jpg")
        let second = DurableFiles.temporaryPath(for: "/lib/2026/photo.jpg")
        XCTAssertNotEqual(first, second)
        XCTAssertTrue(first.string.hasPrefix("/lib/2026/.photo.jpg."), first.string)
        XCTAssertTrue(first.string.hasSuffix(".tmp"), first.string)
        XCTAssertTrue(DurableFiles.temporaryPath(for: "name").string.hasPrefix(".name."))
        XCTAssertEqual(DurableFiles.parentDirectory(of: "name"), ".")
        XCTAssertEqual(DurableFiles.parentDirectory(of: "/name"), "/")
    }
}
