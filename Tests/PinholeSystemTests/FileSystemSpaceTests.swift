// Free space: the statvfs wrapper answers for a real folder and names the failure for a missing one.

import PinholeSystem
import SystemPackage
import XCTest

final class FileSystemSpaceTests: XCTestCase {
    func testAvailableBytesOfARealFolderAndAMissingOne() throws {
        let available = try FileSystemSpace.availableBytes(at: FilePath("/tmp"))
        XCTAssertGreaterThan(available, 0)
        XCTAssertThrowsError(
            try FileSystemSpace.availableBytes(at: FilePath("/tmp/pinhole-no-such-folder/x"))
        ) {
            XCTAssertEqual($0 as? Errno, .noSuchFileOrDirectory)
        }
    }
}
