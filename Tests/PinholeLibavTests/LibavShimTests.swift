// The video shim is a shared object loaded on first use: found beside the binary, or a clear error naming what to install.

import Foundation
import PinholeCore
@testable import PinholeLibav
import SystemPackage
import XCTest

final class LibavShimTests: XCTestCase {
    func testAMissingShimIsAnUnavailableErrorThatNamesWhereItLookedAndWhatToInstall() throws {
        let missing = FilePath(FileManager.default.temporaryDirectory.path)
            .appending("pinhole-no-such-\(getpid())").appending(LibavShim.fileName)
        XCTAssertThrowsError(try LibavShim.load(from: [missing])) { error in
            guard case .unavailable(let reason)? = error as? VideoError else { return XCTFail("\(error)") }
            XCTAssertTrue(
                reason.hasPrefix("recording and clips need libavcodec through libPinholeVideo.so"), reason)
            XCTAssertTrue(reason.contains(missing.string), reason)
            XCTAssertTrue(reason.contains("apt-get install libavcodec59 libavformat59 libavutil57"), reason)
            XCTAssertEqual("\(error)", reason, "the message is the reason, without a prefix")
        }
    }

    func testAFileThatIsNotTheShimIsRefusedByName() throws {
        // libc is a shared object without the shim's entry point.
        let libc = FilePath("/lib/x86_64-linux-gnu/libc.so.6")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: libc.string), "no x86_64 libc path here")
        XCTAssertThrowsError(try LibavShim.load(from: [libc])) { error in
            guard case .unavailable(let reason)? = error as? VideoError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("is not Pinhole's video shim"), reason)
        }
    }

    /// The build puts the shim beside the test bundle, as beside `pinhole`; loading it maps
    /// libavcodec into this process (what an appliance that never records must not do,
    /// SimBoardMappingTests).
    func testTheBuiltShimLoadsAndBringsLibavWithIt() throws {
        let version = try LibavVideoBackend().load()
        XCTAssertFalse(version.isEmpty)
        XCTAssertTrue(LibavVideoBackend().available(.libx264), "this libavcodec has libx264 (tools/setup)")
        // A /proc file read to its end (its size reads as 0, so a one-shot read gets nothing).
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("/libPinholeVideo.so"), "the shim is mapped")
        XCTAssertTrue(text.contains("/libavcodec.so"), "libavcodec is mapped")
    }
}
