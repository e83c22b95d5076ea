// fsck compares index and files page by page and directory by directory, and misses nothing between pages.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary

final class FsckPagingTests: LibraryTestCase {
    /// Five photos read two rows at a time: the problems on the last page, the orphans in
    /// another directory and the stray motion clip are all found, each once.
    func testEveryPageAndEveryDirectoryIsChecked() throws {
        let library = try openLibrary()
        var assets: [Asset] = []
        for seed in 0..<5 {
            assets.append(try library.add(jpeg: TestJPEG.make(seed: seed), metadata: testMetadata()))
        }
        let byID = assets.sorted { $0.id < $1.id }
        XCTAssertTrue(try library.fsck(verifyChecksums: true, pageSize: 2).isClean, fsckText(library))

        // The last row in identifier order (third page of two) loses its original; the fourth
        // (second page) has its content changed at the same size.
        try FileManager.default.removeItem(atPath: (library.fileURLPath(of: byID[4])).string)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: (library.fileURLPath(of: byID[3])).string))
        bytes[bytes.count / 2] ^= 0xFF
        writeFile((library.fileURLPath(of: byID[3])).string, contents: bytes)
        // A copy of the first photo in another directory, a motion clip of a photo that is no
        // Live Photo, and a foreign file.
        let other = "originals/2020/01/01"
        try FileManager.default.createDirectory(atPath: dir.join(other), withIntermediateDirectories: true)
        writeFile(dir.join("\(other)/\(byID[0].id).jpg"), contents: Data(TestJPEG.make(seed: 0)))
        let stillDirectory = (byID[1].path as NSString).deletingLastPathComponent
        writeFile(dir.join("\(stillDirectory)/\(byID[1].id).motion.mp4"), contents: Data([0, 0, 0, 8]))
        writeFile(dir.join("\(other)/notes.txt"), contents: Data("x".utf8))

        let report = try library.fsck(verifyChecksums: true, pageSize: 2)
        XCTAssertEqual(report.assetCount, 5)
        XCTAssertEqual(report.missingFiles, [byID[4].id])
        XCTAssertEqual(report.checksumMismatches, [byID[3].id])
        XCTAssertEqual(
            report.orphanFiles,
            [
                "\(other)/\(byID[0].id).jpg", "\(other)/notes.txt",
                "\(stillDirectory)/\(byID[1].id).motion.mp4",
            ].sorted())
        XCTAssertEqual(try library.fsck(verifyChecksums: true), report)
    }
}
