// Real clips in a real library: a recording cut mid-fragment is adopted shorter, clips list, export, import, purge and get a poster.

import Foundation
import PinholeCore
import PinholeImaging
import PinholeLibav
import XCTest

@testable import PinholeLibrary
import SystemPackage

/// Writes a clip's container bytes into the library's recording file (as `pinhole run` does).
final class LibraryClipSink: ClipSink {
    let clip: LibraryClipFile
    private(set) var boundaries: [Int64] = []

    init(_ clip: LibraryClipFile) { self.clip = clip }

    func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
        do { try clip.write(bytes) } catch { throw .storage("\(error)") }
    }

    func fragmentCompleted() throws(VideoError) {
        do { try clip.sync() } catch { throw .storage("\(error)") }
        boundaries.append(clip.byteCount)
    }
}

/// Real clips for library tests: encoded by libx264 into fragmented MP4 by libavformat.
enum LibraryClipFixtures {
    static let settings = ClipEncoderSettings(
        size: PixelSize(width: 160, height: 96), fps: 15, bitRate: 300_000, keyframeInterval: 15,
        encoder: .libx264)

    /// The metadata `encode` writes (the display matrix turned by `rotationDegrees`).
    static func metadata(rotationDegrees: Int = 0) -> ClipMetadata {
        ClipMetadata(
            creationTime: WallTime(secondsSince1970: 1_795_698_000), latitude: 48.8577, longitude: -2.295,
            altitude: 35, rotationDegrees: rotationDegrees, make: "Pinhole", model: "Test", clockTrust: .gps)
    }

    /// Encodes `frames` frames (a keyframe, so a fragment, every 15) into `sink`.
    static func encode(frames: Int, into sink: any ClipSink, rotationDegrees: Int = 0) throws {
        let backend = LibavVideoBackend()
        let encoder = try backend.makeEncoder(settings)
        let writer = try backend.makeWriter(
            settings: settings, codecHeader: encoder.codecHeader,
            metadata: metadata(rotationDegrees: rotationDegrees), sink: sink)
        for index in 0..<frames {
            for packet in try encoder.encode(
                ClipTools.frame(settings.size, index: index),
                presentationMicroseconds: Int64(index) * settings.frameMicroseconds, forceKeyframe: false)
            {
                try writer.write(packet)
            }
        }
        for packet in try encoder.finish() { try writer.write(packet) }
        try writer.finish()
    }

    /// A whole 3 s clip (45 frames, three fragments) in a file outside any library, and the
    /// sizes at its fragment boundaries.
    static func wholeClip(in directory: URL, name: String = "whole.mp4") throws -> (
        path: String, boundaries: [Int]
    ) {
        let path = directory.appendingPathComponent(name).path
        let sink = try RecordingFileSink(path: path)
        try encode(frames: 45, into: sink)
        try sink.handle.close()
        return (path, sink.boundaries)
    }

    /// `asset` (an imported or adopted clip) has in the library what `encode` wrote and
    /// ffprobe reads in `file`: make, model, place, clock trust and creation time.
    static func assertCarriesTheWrittenMetadata(
        _ asset: Asset, file: String, line: UInt = #line
    ) throws {
        let tags =
            try ClipTools.probe(file)["format"].flatMap { ($0 as? [String: Any])?["tags"] } as? [String: Any]
        XCTAssertEqual(tags?["com.apple.quicktime.make"] as? String, "Pinhole", "\(tags ?? [:])", line: line)
        XCTAssertEqual(tags?["com.apple.quicktime.model"] as? String, "Test", line: line)
        XCTAssertEqual(
            tags?["com.apple.quicktime.location.ISO6709"] as? String, "+48.8577-002.2950+035.000/", line: line
        )
        XCTAssertEqual(tags?["org.pinhole.clock-trust"] as? String, "gps", line: line)
        XCTAssertEqual(asset.make, "Pinhole", line: line)
        XCTAssertEqual(asset.model, "Test", line: line)
        XCTAssertEqual(asset.gps?.latitude, 48.8577, line: line)
        XCTAssertEqual(asset.gps?.longitude, -2.295, line: line)
        XCTAssertEqual(asset.gps?.altitude, 35, line: line)
        XCTAssertEqual(asset.clockTrust, .gps, line: line)
        XCTAssertEqual(asset.created, WallTime(secondsSince1970: 1_795_698_000), line: line)
    }

    /// The library under `directory` (a fixed clock).
    static func open(_ directory: URL, name: String = "library", options: LibraryOptions = LibraryOptions())
        throws -> PhotoLibrary
    {
        try PhotoLibrary.open(
            at: FilePath(directory.appendingPathComponent(name).path), options: options,
            now: { WallTime(secondsSince1970: 1_795_700_000) })
    }

    /// Frames ffprobe counts by decoding every one.
    static func decodedFrames(_ path: String) throws -> Int {
        let streams = try ClipTools.probe(path)["streams"] as? [[String: Any]]
        return Int(streams?.first?["nb_read_frames"] as? String ?? "") ?? -1
    }
}

final class LibraryClipTests: XCTestCase {
    let settings = LibraryClipFixtures.settings

    func encode(frames: Int, into sink: any ClipSink) throws {
        try LibraryClipFixtures.encode(frames: frames, into: sink)
    }

    func wholeClip(in directory: URL) throws -> (path: String, boundaries: [Int]) {
        try LibraryClipFixtures.wholeClip(in: directory)
    }

    func open(_ directory: URL) throws -> PhotoLibrary { try LibraryClipFixtures.open(directory) }

    func decodedFrames(_ path: String) throws -> Int { try LibraryClipFixtures.decodedFrames(path) }

    func testARecordingCutMidFragmentIsAdoptedAsAShorterClipThatDecodes() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let whole = try wholeClip(in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole.path))
        // The boundaries: the header, the end of the 1st and 2nd fragments, the end of the file.
        let ends = Array(Set(whole.boundaries)).sorted()
        XCTAssertGreaterThanOrEqual(ends.count, 3, "\(whole.boundaries)")
        let secondEnd = ends[ends.count - 2]
        let cut = (secondEnd + bytes.count) / 2  // in the middle of the third fragment
        var recordingPath = ""
        do {
            // The recording as the library writes it, killed in the middle of its third fragment.
            let library = try open(directory)
            let clip = try library.beginClip(created: nil)
            try bytes.prefix(cut).withUnsafeBytes { try clip.write($0) }
            try clip.sync()
            recordingPath = clip.temporaryPath
        }
        XCTAssertNotEqual(
            try ClipTools.decodeErrors(recordingPath), "", "the cut file must not decode cleanly as it is")

        let reopened = try open(directory)
        let report = reopened.recoveryReport
        XCTAssertEqual(report.quarantinedFiles, [], "\(report.lines)")
        XCTAssertEqual(report.adoptedRecordings.count, 1, "\(report.lines)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: recordingPath), "no orphan left behind")
        let clips = try reopened.assets(AssetQuery.all.filter(.mediaType(.video)))
        XCTAssertEqual(clips.count, 1)
        let clip = try XCTUnwrap(clips.first)
        let file = reopened.fileURLPath(of: clip).string
        XCTAssertTrue(file.hasSuffix("/\(clip.id).mp4"), file)
        // Cut back to the end of the second fragment: 30 frames, 2 s, every one decodes.
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)).count, secondEnd)
        XCTAssertEqual(try decodedFrames(file), 30)
        XCTAssertEqual(try ClipTools.decodeErrors(file), "")
        XCTAssertEqual(clip.duration, .seconds(2))
        XCTAssertEqual(clip.frameRate, 15)
        XCTAssertEqual(clip.codec, "h264")
        XCTAssertEqual(clip.pixelSize, settings.size)
        try LibraryClipFixtures.assertCarriesTheWrittenMetadata(clip, file: file)
        XCTAssertTrue(
            try reopened.fsck(verifyChecksums: true).isClean, "\((try? reopened.fsck().lines) ?? [])")
        // And the next open finds nothing more to do.
        let again = try open(directory)
        XCTAssertTrue(again.recoveryReport.isClean, "\(again.recoveryReport.lines)")
    }

    func testAClipNamedButNotIndexedIsAdoptedFromWhatLibavformatReads() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let whole = try wholeClip(in: directory)
        let id: String
        do {
            let library = try open(directory)
            let clip = try library.beginClip(created: nil)
            try Data(contentsOf: URL(fileURLWithPath: whole.path)).withUnsafeBytes { try clip.write($0) }
            // The cut falls after the rename, before the index entry.
            try FileManager.default.moveItem(atPath: clip.temporaryPath, toPath: clip.absolutePath.string)
            id = String(clip.relative.split(separator: "/").last!.dropLast(4))
        }
        let reopened = try open(directory)
        XCTAssertEqual(reopened.recoveryReport.adoptedAssets, [id], "\(reopened.recoveryReport.lines)")
        let clip = try XCTUnwrap(try reopened.asset(id: id))
        XCTAssertEqual(clip.mediaType, .video)
        XCTAssertEqual(clip.duration, .seconds(3))
        XCTAssertTrue(try reopened.fsck(verifyChecksums: true).isClean)
    }

    func testClipsListExportImportAndPurgeAsVideos() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let library = try open(directory)
        let recording = try library.beginClip(created: nil)
        let sink = LibraryClipSink(recording)
        try encode(frames: 45, into: sink)
        var record = ClipRecord(size: settings.size, frameRate: 15, codec: "h264", duration: .seconds(3))
        record.triggerOffset = .seconds(2)
        let clip = try recording.complete(record)
        let photo = try JPEGEncoder(quality: 90, threads: 1).encode(ClipTools.frame(settings.size, index: 0))
        _ = try library.performChanges {
            _ = $0.createAsset(jpeg: photo, metadata: PhotoMetadata(pixelWidth: 160, pixelHeight: 96))
        }

        // Listed apart from photos, in the Videos smart album.
        XCTAssertEqual(try library.assets(AssetQuery.all.filter(.mediaType(.video))).map(\.id), [clip.id])
        XCTAssertEqual(try library.count(AssetQuery.all.filter(.mediaType(.photo))), 1)
        XCTAssertEqual(try library.assets(library.query(for: .videos)).map(\.id), [clip.id])
        XCTAssertEqual(try library.count(library.query(for: .livePhotos)), 0)
        XCTAssertTrue(try library.smartAlbums().contains(.videos))

        // Exported as .mp4, the same bytes.
        let out = directory.appendingPathComponent("stick").path
        let exported = try library.export(AssetQuery.all.filter(.mediaType(.video)), to: FilePath(out))
        XCTAssertEqual(exported.written.count, 1)
        XCTAssertTrue(exported.written[0].hasSuffix(".mp4"), exported.written[0])
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: exported.written[0])),
            try Data(contentsOf: URL(fileURLWithPath: library.fileURLPath(of: clip).string)))

        // Imported into another library: a video with what libavformat reads in it.
        let other = try LibraryClipFixtures.open(directory, name: "other")
        let imported = try other.importFolder(FilePath(out))
        XCTAssertEqual(imported.imported.count, 1, "\(imported.failures)")
        let copy = try XCTUnwrap(try other.asset(id: imported.imported[0]))
        XCTAssertEqual(copy.mediaType, .video)
        XCTAssertEqual(copy.duration, .seconds(3))
        XCTAssertEqual(copy.frameRate, 15)
        XCTAssertEqual(copy.created, WallTime(secondsSince1970: 1_795_698_000), "creation_time from the mvhd")
        try LibraryClipFixtures.assertCarriesTheWrittenMetadata(
            copy, file: other.fileURLPath(of: copy).string)
        XCTAssertTrue(other.fileURLPath(of: copy).string.hasSuffix(".mp4"))
        XCTAssertEqual(
            try other.importFolder(FilePath(out)).duplicates.count, 1, "the same bytes again are a duplicate")
        XCTAssertEqual(try decodedFrames(other.fileURLPath(of: copy).string), 45)

        // Recently Deleted, restore, purge: the file goes only with the purge.
        try library.delete([clip.id])
        XCTAssertEqual(try library.assets(library.query(for: .recentlyDeleted)).map(\.id), [clip.id])
        XCTAssertEqual(try library.count(library.query(for: .videos)), 0)
        try library.restore([clip.id])
        XCTAssertEqual(try library.count(library.query(for: .videos)), 1)
        try library.delete([clip.id])
        let file = library.fileURLPath(of: clip).string
        try library.purge([clip.id])
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
        XCTAssertNil(try library.asset(id: clip.id))
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, "\((try? library.fsck().lines) ?? [])")
    }

    func testARecordedClipsRotationIsItsOrientationAndItsThumbnailIsUpright() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let library = try open(directory)
        // The recorder's path: a camera mounted a quarter turn clockwise.
        let recording = try LibraryClipStore(library: library).beginClip(startedAt: nil)
        try LibraryClipFixtures.encode(frames: 45, into: recording, rotationDegrees: 90)
        let saved = try recording.complete(
            ClipFacts(
                metadata: LibraryClipFixtures.metadata(rotationDegrees: 90), size: settings.size, fps: 15,
                frameCount: 45, durationMicroseconds: 3_000_000, triggerMicroseconds: 0))
        let clip = try XCTUnwrap(try library.asset(id: saved.id))
        XCTAssertEqual(clip.orientation, .right)
        XCTAssertEqual(clip.pixelSize, settings.size, "the stored frames stay as encoded")
        let fit = PixelSize(width: 80, height: 80)
        XCTAssertEqual(
            try library.thumbnail(of: clip, size: fit, mode: .aspectFit).size,
            PixelSize(width: 48, height: 80),
            "upright: portrait")

        // Exported and imported elsewhere: read back from the display matrix.
        let out = directory.appendingPathComponent("stick").path
        _ = try library.export(.all, to: FilePath(out))
        let other = try LibraryClipFixtures.open(directory, name: "other")
        let copy = try XCTUnwrap(
            try other.importFolder(FilePath(out)).imported.first.flatMap { try other.asset(id: $0) })
        XCTAssertEqual(copy.orientation, .right)
        XCTAssertEqual(
            try other.thumbnail(of: copy, size: fit, mode: .aspectFit).size, PixelSize(width: 48, height: 80))
        for (degrees, orientation) in [(180, Orientation.down), (270, .left), (0, .up)] {
            var probed = try LibavClipReader.probe(library.fileURLPath(of: clip))
            probed.rotationDegrees = degrees
            XCTAssertEqual(ClipRecord(probed).orientation, orientation, "\(degrees)°")
        }
    }

    func testAnInterruptedPurgeOfAClipIsUndone() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let whole = try wholeClip(in: directory)
        let clip: Asset
        let root = directory.appendingPathComponent("library").path
        do {
            let library = try open(directory)
            let recording = try library.beginClip(created: nil)
            try Data(contentsOf: URL(fileURLWithPath: whole.path)).withUnsafeBytes { try recording.write($0) }
            clip = try recording.complete(
                ClipRecord(size: settings.size, frameRate: 15, codec: "h264", duration: .seconds(3)))
            try library.delete([clip.id])
            // A purge cut after the move into .purging/, before its commit.
            try FileManager.default.moveItem(
                atPath: library.fileURLPath(of: clip).string, toPath: root + "/.purging/\(clip.id).mp4")
        }
        let reopened = try open(directory)
        XCTAssertEqual(reopened.recoveryReport.restoredPurges, [clip.id], "\(reopened.recoveryReport.lines)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: reopened.fileURLPath(of: clip).string))
        XCTAssertTrue(try reopened.fsck(verifyChecksums: true).isClean)
    }

    func testTheThumbnailIsThePosterFrameAtTheTrigger() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let library = try open(directory)
        var clips: [Asset] = []
        for trigger in [Duration.zero, .seconds(2)] {
            let recording = try library.beginClip(created: nil)
            try encode(frames: 45, into: LibraryClipSink(recording))
            var record = ClipRecord(size: settings.size, frameRate: 15, codec: "h264", duration: .seconds(3))
            record.triggerOffset = trigger
            clips.append(try recording.complete(record))
        }
        var lumas: [Int] = []
        for clip in clips {
            let thumbnail = try library.thumbnail(
                of: clip, size: PixelSize(width: 80, height: 80), mode: .aspectFit)
            XCTAssertEqual(thumbnail.size, PixelSize(width: 80, height: 48))
            let pixels = try JPEGDecoder.decode(thumbnail.jpeg, pixelLimit: 80 * 48)
            lumas.append(Int(pixels.planes[0].bytes[0]))
        }
        // ClipTools.frame's top-left luma is 5 × the frame's index: frame 0, then frame 30.
        XCTAssertLessThan(lumas[0], 30, "\(lumas)")
        XCTAssertGreaterThan(lumas[1], 120, "\(lumas)")
    }
}
