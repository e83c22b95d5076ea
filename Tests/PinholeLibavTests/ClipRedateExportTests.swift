// A redated clip or Live Photo is exported with its corrected creation_time (ffprobe, exiftool), streamed.

import Foundation
import PinholeCore
import PinholeImaging
import PinholeLibav
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class ClipRedateExportTests: XCTestCase {
    /// The recording's creation_time (LibraryClipFixtures.metadata) and the correction applied:
    /// a camera clock one day, one hour, one minute and one second slow.
    let recorded = WallTime(secondsSince1970: 1_795_698_000)
    let shift = Duration.seconds(90_061)

    /// ffprobe's format creation_time and exiftool's QuickTime:CreateDate of `path`.
    func dates(_ path: String) throws -> (ffprobe: String?, exiftool: String?) {
        let tags =
            try ClipTools.probe(path)["format"].flatMap { ($0 as? [String: Any])?["tags"] } as? [String: Any]
        let result = try ClipTools.run("exiftool", ["-json", "-G1", "-QuickTime:CreateDate", path])
        XCTAssertEqual(result.status, 0, result.errors)
        let exif = (try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])?
            .first
        return (tags?["creation_time"] as? String, exif?["QuickTime:CreateDate"] as? String)
    }

    func testARedatedClipIsExportedWithItsCorrectedCreationTimeInPieces() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        var options = LibraryOptions()
        options.streamChunkBytes = 4096
        let library = try LibraryClipFixtures.open(directory, options: options)
        let recording = try library.beginClip(created: nil)
        try LibraryClipFixtures.encode(frames: 45, into: LibraryClipSink(recording))
        var record = ClipRecord(
            size: LibraryClipFixtures.settings.size, frameRate: 15, codec: "h264", duration: .seconds(3))
        record.created = recorded  // as the recorder does, from the movie's metadata
        let clip = try recording.complete(record)
        XCTAssertEqual(clip.created, recorded)
        _ = try library.performChanges { $0.redate([clip.id], by: shift) }
        let redated = try XCTUnwrap(try library.asset(id: clip.id))
        XCTAssertEqual(redated.created, WallTime(secondsSince1970: 1_795_788_061))

        let out = directory.appendingPathComponent("stick").path
        let before = library.streamed.withLock { $0 }
        let written = try library.export(.all, to: FilePath(out)).written
        let file = try XCTUnwrap(written.first)
        XCTAssertEqual(written.count, 1)
        XCTAssertTrue(file.hasSuffix("_\(clip.id.suffix(12)).mp4"), file)
        let read = library.streamed.withLock { $0 }
        XCTAssertEqual(read.largestRead, 4096, "the rewritten clip is streamed in pieces, not held whole")
        XCTAssertEqual(
            read.bytes - before.bytes, Int64(try Data(contentsOf: URL(fileURLWithPath: file)).count))

        // The corrected date for ffprobe and exiftool; every frame, place, make and trust kept.
        let (ffprobe, exiftool) = try dates(file)
        XCTAssertEqual(ffprobe, "2026-11-27T14:01:01.000000Z")
        XCTAssertEqual(exiftool, "2026:11:27 14:01:01")
        XCTAssertEqual(try LibraryClipFixtures.decodedFrames(file), 45)
        XCTAssertEqual(try ClipTools.decodeErrors(file), "")
        let tags =
            try ClipTools.probe(file)["format"].flatMap { ($0 as? [String: Any])?["tags"] } as? [String: Any]
        XCTAssertEqual(tags?["com.apple.quicktime.location.ISO6709"] as? String, "+48.8577-002.2950+035.000/")
        XCTAssertEqual(tags?["com.apple.quicktime.make"] as? String, "Pinhole")
        XCTAssertEqual(tags?["org.pinhole.clock-trust"] as? String, "gps")
        XCTAssertEqual(
            try dates(library.fileURLPath(of: clip).string).ffprobe, "2026-11-26T13:00:00.000000Z",
            "the original is never changed")

        // Another library imports it at the corrected date; a redone export rewrites nothing.
        let other = try LibraryClipFixtures.open(directory, name: "other")
        let imported = try other.importFolder(FilePath(out))
        XCTAssertEqual(imported.imported.count, 1, "\(imported.failures)")
        XCTAssertEqual(try other.asset(id: imported.imported[0])?.created, redated.created)
        XCTAssertEqual(try library.export(.all, to: FilePath(out)).skipped.count, 1)
        XCTAssertTrue(
            try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.hasSuffix(".tmp") })
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("library/cache").path
            )
            .filter { $0.hasPrefix(".export-") }, [], "no scratch file left")
    }

    func testARedatedLivePhotosMovieAndMotionPhotoCarryTheCorrectedDate() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let library = try LibraryClipFixtures.open(directory)
        var metadata = PhotoMetadata(pixelWidth: 160, pixelHeight: 96)
        metadata.captureTime = WallTime(secondsSince1970: 1_795_698_001)
        let jpeg = try PhotoEncoder(quality: 90, threads: 1).encode(
            image: ClipTools.frame(PixelSize(width: 160, height: 96), index: 15), metadata: metadata)
        let id = try library.performChanges { _ = $0.createAsset(jpeg: jpeg, metadata: metadata) }
            .createdAssetIDs[0]
        let clip = try LibraryClipFixtures.wholeClip(in: directory).path
        _ = try library.attachMotion(to: id, clip: FilePath(clip), stillOffset: .seconds(1))
        _ = try library.performChanges { $0.redate([id], by: shift) }

        let out = directory.appendingPathComponent("stick").path
        let written = try library.export(.all, to: FilePath(out)).written
        XCTAssertEqual(written.count, 3)
        let stem = String(try XCTUnwrap(written.first).dropLast(4))
        // The still at 13:00:01 + the shift; its movie starts one second (its still offset) earlier.
        let mov = try dates(stem + ".mov")
        XCTAssertEqual(mov.ffprobe, "2026-11-27T14:01:01.000000Z")
        XCTAssertEqual(mov.exiftool, "2026:11:27 14:01:01")
        XCTAssertEqual(try LibraryClipFixtures.decodedFrames(stem + ".mov"), 45)

        // The Motion Photo's appended MP4 (from its ftyp box on).
        let motionPhoto = try Data(contentsOf: URL(fileURLWithPath: stem + ".MP.jpg"))
        let ftyp = try XCTUnwrap(motionPhoto.range(of: Data("ftyp".utf8)))
        let video = directory.appendingPathComponent("trailer.mp4").path
        try motionPhoto.suffix(from: ftyp.lowerBound - 4).write(to: URL(fileURLWithPath: video))
        let mp4 = try dates(video)
        XCTAssertEqual(mp4.ffprobe, "2026-11-27T14:01:01.000000Z")
        XCTAssertEqual(mp4.exiftool, "2026:11:27 14:01:01")
        XCTAssertEqual(try LibraryClipFixtures.decodedFrames(video), 45)
        XCTAssertEqual(try ClipTools.decodeErrors(video), "")
    }
}
