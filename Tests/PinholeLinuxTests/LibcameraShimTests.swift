// The camera shim is a shared object loaded on first use: found beside the binary, or a clear error.

import Foundation
import PinholeCore
@testable import PinholeLinux
import SystemPackage
import XCTest

final class LibcameraShimTests: XCTestCase {
    func testTheShimIsLookedForBesideTheBinaryThenInLibPinhole() {
        XCTAssertEqual(
            LibcameraShim.candidates(beside: "/usr/bin/pinhole"),
            ["/usr/bin/libPinholeCamera.so", "/usr/lib/pinhole/libPinholeCamera.so"])
        XCTAssertEqual(LibcameraShim.candidates(beside: nil), [])
    }

    func testAMissingShimIsANoCameraErrorThatNamesWhereItLooked() throws {
        let folder = try XCTUnwrap(FileManager.default.temporaryDirectory.path)
        let missing = FilePath(folder).appending("pinhole-no-such-\(getpid())").appending(
            "libPinholeCamera.so")
        XCTAssertThrowsError(try LibcameraShim.load(from: [missing])) { error in
            guard case .noCamera(let detail)? = error as? CameraError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("libPinholeCamera.so could not be loaded"), detail)
            XCTAssertTrue(detail.contains(missing.string), detail)
            XCTAssertTrue(detail.contains("reinstall the pinhole package"), detail)
        }
    }

    func testAFileThatIsNotTheShimIsRefusedByName() throws {
        // libc is a shared object without the shim's entry point.
        let libc = FilePath("/lib/x86_64-linux-gnu/libc.so.6")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: libc.string), "no x86_64 libc path here")
        XCTAssertThrowsError(try LibcameraShim.load(from: [libc])) { error in
            guard case .noCamera(let detail)? = error as? CameraError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("is not Pinhole's camera shim"), detail)
        }
    }

    /// The build puts the shim beside the test bundle, as beside `pinhole`; loading it maps
    /// libcamera into this process (what the simulated board must never do, SimBoardMappingTests).
    func testTheBuiltShimLoadsAndBringsLibcameraWithIt() throws {
        let shim = try LibcameraShim.shared()
        XCTAssertFalse(shim.version.isEmpty)
        let maps = try procText("/proc/self/maps")
        XCTAssertTrue(maps.contains("/libPinholeCamera.so"), "the shim is mapped")
        XCTAssertTrue(maps.contains("/libcamera.so"), "libcamera is mapped")
    }

    /// A /proc file read to its end (its size reads as 0, so a one-shot read stops at a page).
    private func procText(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
}
