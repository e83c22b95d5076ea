// Import takes only regular files of bounded size from bounded depth: FIFOs, links and huge files on a stick fail alone.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class ImportEdgeTests: XCTestCase {
    /// A FIFO named like a photo (opened without O_NONBLOCK it would wait for a writer for
    /// ever) and a link to /dev/zero (read to the end it never ends) each fail on their own;
    /// the real photo beside them is imported.
    func testAFIFOAndALinkToDevZeroFailWithoutHangingAndTheRestImports() throws {
        let source = TemporaryDirectory("pinhole-import-edges")
        writeFile(source.join("good.jpg"), contents: Data(TestJPEG.make()))
        XCTAssertEqual(mkfifo(source.join("fifo.jpg"), 0o644), 0)
        try FileManager.default.createSymbolicLink(
            atPath: source.join("zero.jpg"), withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(
            atPath: source.join("linked.jpg"), withDestinationPath: source.join("good.jpg"))
        let library = try PhotoLibrary.open(
            at: FilePath(TemporaryDirectory().path), now: ManualWallClock().now)
        let report = try library.importFolder(FilePath(source.path))
        XCTAssertEqual(report.imported.count, 1)
        XCTAssertEqual(
            Set(report.failures.keys),
            [source.join("fifo.jpg"), source.join("zero.jpg"), source.join("linked.jpg")])
        XCTAssertTrue(
            report.failures[source.join("fifo.jpg")]!.contains("not a regular file (a FIFO)"),
            "\(report.failures)")
        XCTAssertTrue(
            report.failures[source.join("zero.jpg")]!.contains("a symbolic link (not followed)"),
            "\(report.failures)")
    }

    /// A file larger than the limit is refused from its size, before a byte is read (a sparse
    /// file: nothing is allocated).
    func testAFileOverTheSizeLimitIsRefusedUnread() throws {
        let source = TemporaryDirectory("pinhole-import-huge")
        let huge = source.join("huge.jpg")
        writeFile(huge, contents: Data(TestJPEG.make()))
        XCTAssertEqual(truncate(huge, off_t(PhotoLibrary.importFileLimit + 1)), 0)
        let library = try PhotoLibrary.open(
            at: FilePath(TemporaryDirectory().path), now: ManualWallClock().now)
        let report = try library.importFolder(FilePath(source.path))
        XCTAssertEqual(report.imported, [])
        XCTAssertTrue(
            report.failures[huge]?.contains("more than the 64 MB a photo may have") == true,
            "\(report.failures)")
    }

    /// Folders deeper than the limit are reported and not descended into; a link to a folder
    /// (here: a loop back to the top) is not followed.
    func testFoldersDeeperThanTheLimitAndLinkedFoldersAreNotEntered() throws {
        let source = TemporaryDirectory("pinhole-import-deep")
        var path = source.path
        for level in 1...PhotoLibrary.importDepthLimit { path += "/d\(level)" }
        try FileManager.default.createDirectory(atPath: path + "/too-deep", withIntermediateDirectories: true)
        writeFile(path + "/deepest.jpg", contents: Data(TestJPEG.make(seed: 1)))
        writeFile(path + "/too-deep/lost.jpg", contents: Data(TestJPEG.make(seed: 2)))
        try FileManager.default.createSymbolicLink(
            atPath: source.join("loop"), withDestinationPath: source.path)
        let library = try PhotoLibrary.open(
            at: FilePath(TemporaryDirectory().path), now: ManualWallClock().now)
        let report = try library.importFolder(FilePath(source.path))
        XCTAssertEqual(report.imported.count, 1, "\(report)")
        XCTAssertEqual(report.failures, [path + "/too-deep": "more than 16 folders deep: not imported"])
    }
}
