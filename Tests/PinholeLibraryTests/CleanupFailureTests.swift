// A cleanup that fails after a change that succeeded is counted right, recorded and reported, never silent.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary

final class CleanupFailureTests: LibraryTestCase {
    override class var opensLibrary: Bool { true }

    /// A cached thumbnail that cannot be removed (its folder immutable) is not counted as
    /// cleared; the failure is recorded, with what is left, and reported as it happens.
    func testAThumbnailThatCannotBeRemovedIsReportedAndNotCounted() throws {
        let asset = try library.add(jpeg: TestJPEG.make(), metadata: testMetadata())
        let thumbnail = try library.thumbnail(
            of: asset, size: PixelSize(width: 32, height: 32), mode: .aspectFit)
        let reported = Reported()
        library.reportCleanupFailures { reported.append($0) }
        let folder = thumbnail.file.removingLastComponent().string
        try chattr("+i", folder)
        defer { try? chattr("-i", folder, check: false) }  // if an assertion below stops the test
        XCTAssertEqual(try library.clearThumbnailCache(), 0, "nothing was removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: thumbnail.file.string))
        XCTAssertEqual(library.cleanupFailureCount, 1)
        let failure = try XCTUnwrap(library.cleanupFailures.first)
        XCTAssertTrue(failure.hasPrefix("could not remove the cached thumbnail \(thumbnail.file) ("), failure)
        XCTAssertTrue(failure.hasSuffix("): it stays in the cache"), failure)
        XCTAssertEqual(reported.texts, [failure])
        try chattr("-i", folder)
        XCTAssertEqual(try library.clearThumbnailCache(), 1)
        XCTAssertEqual(library.cleanupFailureCount, 1)
    }
}

/// Texts a reporter was given (from any thread).
private final class Reported: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ text: String) { lock.withLock { stored.append(text) } }
    var texts: [String] { lock.withLock { stored } }
}
