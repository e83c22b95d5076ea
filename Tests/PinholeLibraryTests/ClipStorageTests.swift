// Clips in the library: written hidden and durable per fragment, named and indexed as videos, clean to fsck and recovery.

import Foundation
import PinholeCore
import XCTest

@testable import PinholeLibrary
@testable import PinholeLibraryCommandLine
import SystemPackage

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
            let library = try PhotoLibrary.open(at: FilePath(directory.path), now: clock.now)
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
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: clip.absolutePath.string)).count, 3000)
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
        let reopened = try PhotoLibrary.open(at: FilePath(directory.path), now: clock.now)
        XCTAssertTrue(reopened.recoveryReport.isClean, "\(reopened.recoveryReport.lines)")
        XCTAssertEqual(try reopened.asset(id: asset.id)?.mediaType, .video)
    }

    func testARecordingCutShortHoldingNoFrameIsRemovedAndSaysSo() throws {
        let directory = TemporaryDirectory()
        let clock = ManualWallClock()
        let path: String
        do {
            // The process dies while recording: the hidden file stays (bytes no demuxer reads
            // a frame in; FirstFragmentCutTests keeps the frames a real recording holds).
            let library = try PhotoLibrary.open(at: FilePath(directory.path), now: clock.now)
            path = try record(into: library, fragments: 2).temporaryPath
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        let reopened = try PhotoLibrary.open(at: FilePath(directory.path), now: clock.now)
        let report = reopened.recoveryReport
        XCTAssertTrue(report.removedTempFiles.isEmpty, "\(report.lines)")
        XCTAssertEqual(report.quarantinedFiles, [], "\(report.lines)")
        XCTAssertEqual(report.removedRecordings.count, 1, "\(report.lines)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no orphan left")
        XCTAssertTrue(try reopened.fsck().isClean, fsckText(reopened))
    }

    func testListTypeAndTheSmartAlbumsSeparateClipsFromPhotos() throws {
        let directory = TemporaryDirectory()
        let clock = ManualWallClock()
        let library = try PhotoLibrary.open(at: FilePath(directory.path), now: clock.now)
        let clip = try record(into: library, fragments: 1).complete(
            ClipRecord(
                size: PixelSize(width: 160, height: 96), frameRate: 15, codec: "h264", duration: .seconds(3)))
        _ = try library.performChanges {
            _ = $0.createAsset(
                jpeg: try! exifJPEG(width: 64, height: 48, metadata: testMetadata()), metadata: testMetadata()
            )
        }
        let videos = try LibraryCommandLine.execute(["list", "--type", "video"], library: library)
        XCTAssertTrue(videos.hasPrefix(clip.id), videos)
        XCTAssertTrue(videos.hasSuffix(" video 3.0 s"), videos)
        XCTAssertEqual(videos.split(separator: "\n").count, 1)
        XCTAssertFalse(
            try LibraryCommandLine.execute(["list", "--type", "photo"], library: library).contains(clip.id))
        XCTAssertEqual(
            try LibraryCommandLine.execute(["list", "--type", "live"], library: library), "no photos")
        XCTAssertEqual(try LibraryCommandLine.execute(["count", "--type", "video"], library: library), "1")
        let json = try LibraryCommandLine.execute(["list", "--type", "video", "--json"], library: library)
        XCTAssertTrue(json.contains("\"mediaType\":\"video\""), json)
        XCTAssertTrue(json.contains("\"durationSeconds\":3"), json)
        XCTAssertTrue(
            try LibraryCommandLine.execute(["smart", "videos"], library: library).hasPrefix(clip.id))
        XCTAssertEqual(try LibraryCommandLine.execute(["smart", "live"], library: library), "no photos")
        XCTAssertTrue(
            try LibraryCommandLine.execute(["show", clip.id], library: library).contains("duration: 3.0 s"))
        // Hostile values: refused with the choices, nothing changed.
        for hostile in [
            "movie", "", "VIDEO", "video\u{0}", "\u{1b}[2J", "live --json",
            String(repeating: "v", count: 10_000),
        ] {
            XCTAssertThrowsError(
                try LibraryCommandLine.execute(["list", "--type", hostile], library: library)
            ) {
                XCTAssertTrue("\($0)".contains("--type must be photo, video or live"), "\($0)")
            }
        }
        XCTAssertThrowsError(try LibraryCommandLine.execute(["list", "--type"], library: library))
        XCTAssertEqual(try library.count(.all), 2)
    }

    func testClipLengthsReadAsPeopleSayThem() {
        XCTAssertEqual(DurationText.clipLength(.milliseconds(2_960)), "3.0 s")
        XCTAssertEqual(DurationText.clipLength(.milliseconds(12_440)), "12.4 s")
        XCTAssertEqual(DurationText.clipLength(.seconds(65)), "1:05")
        XCTAssertEqual(DurationText.clipLength(.seconds(600)), "10:00")
    }
}
