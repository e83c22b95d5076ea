// Clips in the library: written hidden and durable per fragment, named and indexed as videos, clean to fsck and recovery.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary

final class ClipStorageTests: XCTestCase {
    func record(into library: PhotoLibrary, fragments: Int) throws -> LibraryClipFile {
        let clip = try library.beginClip(created: nil)
        for index in 0..<fragments {
            try [UInt8](repeating: UInt8(index), count: 1000).withUnsafeBytes { try clip.write($0) }
            try clip.sync()
        }
        return clip
    }

    func testAClipIsIndexedAsAVideoOnlyOnceNamed() throws {
        let directory = TemporaryDirectory()
        let clock = ManualWallClock()
        let asset: Asset
        do {
            let library = try PhotoLibrary.open(at: directory.path, now: clock.now)
            let clip = try record(into: library, fragments: 3)
            XCTAssertTrue(FileManager.default.fileExists(atPath: clip.temporaryPath))
            XCTAssertEqual(try library.count(.all), 0, "not indexed while recording")
            var record = ClipRecord(
                size: PixelSize(width: 160, height: 96), frameRate: 30, codec: "h264", duration: .seconds(3))
            record.triggerOffset = .seconds(2)
            record.make = "Pinhole"
            asset = try clip.complete(record)
            XCTAssertFalse(FileManager.default.fileExists(atPath: clip.temporaryPath))
            XCTAssertTrue(asset.path.hasSuffix(".mp4"), asset.path)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: clip.absolutePath)).count, 3000)
            let stored = try XCTUnwrap(try library.asset(id: asset.id))
            XCTAssertEqual(stored.mediaType, .video)
            XCTAssertEqual(stored.duration, .seconds(3))
            XCTAssertEqual(stored.frameRate, 30)
            XCTAssertEqual(stored.codec, "h264")
            XCTAssertEqual(stored.triggerOffset, .seconds(2))
            XCTAssertEqual(stored.fileSize, 3000)
            XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, fsckText(library))
        }
        // Reopened: the clip is an original like a photo, nothing to recover.
        let reopened = try PhotoLibrary.open(at: directory.path, now: clock.now)
        XCTAssertTrue(reopened.recoveryReport.isClean, "\(reopened.recoveryReport.lines)")
        XCTAssertEqual(try reopened.asset(id: asset.id)?.mediaType, .video)
    }

    func testARecordingCutShortIsKeptNotDeleted() throws {
        let directory = TemporaryDirectory()
        let clock = ManualWallClock()
        do {
            // The process dies while recording: the hidden file stays.
            let library = try PhotoLibrary.open(at: directory.path, now: clock.now)
            _ = try record(into: library, fragments: 2)
        }
        let reopened = try PhotoLibrary.open(at: directory.path, now: clock.now)
        XCTAssertTrue(reopened.recoveryReport.removedTempFiles.isEmpty, "\(reopened.recoveryReport.lines)")
        let kept = reopened.recoveryReport.quarantinedFiles
        XCTAssertEqual(kept.count, 1, "\(reopened.recoveryReport.lines)")
        XCTAssertTrue(kept.first?.hasSuffix(".mp4.recording") ?? false, "\(kept)")
    }
}
