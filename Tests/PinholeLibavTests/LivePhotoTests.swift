// Live Photos in a real library: one asset with two resources, exported as Apple's pair and as a Motion Photo (exiftool, ffprobe).

import Foundation
import PinholeCore
import PinholeImaging
import PinholeLibav
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class LivePhotoTests: XCTestCase {
    let clips = LibraryClipFixtures.self

    /// A library with one photo (a real JPEG with EXIF) and a 3 s clip file beside it.
    func photoAndClip() throws -> (URL, PhotoLibrary, Asset, String) {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let library = try clips.open(directory)
        var metadata = PhotoMetadata(pixelWidth: 160, pixelHeight: 96)
        metadata.make = "Pinhole"
        metadata.model = "Test"
        metadata.captureTime = WallTime(secondsSince1970: 1_795_698_001)
        let jpeg = try PhotoEncoder(quality: 90, threads: 1).encode(
            image: ClipTools.frame(PixelSize(width: 160, height: 96), index: 22), metadata: metadata)
        let id = try library.performChanges { _ = $0.createAsset(jpeg: jpeg, metadata: metadata) }
            .createdAssetIDs[0]
        let clip = try clips.wholeClip(in: directory).path
        return (directory, library, try XCTUnwrap(try library.asset(id: id)), clip)
    }

    /// exiftool's JSON of `path` (`-struct`: lists as arrays, as the Motion Photo's directory).
    func exif(_ path: String, structured: Bool = false) throws -> [String: Any] {
        let result = try ClipTools.run(
            "exiftool", ["-json", "-G1"] + (structured ? ["-struct"] : ["-a"]) + [path])
        XCTAssertEqual(result.status, 0, result.errors)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
        return parsed?.first ?? [:]
    }

    func testAPhotoWithItsClipIsOneLiveAssetWithTwoResources() throws {
        let (_, library, photo, clip) = try photoAndClip()
        let live = try library.attachMotion(
            to: photo.id, clip: FilePath(clip), stillOffset: .milliseconds(1500))
        XCTAssertEqual(live.mediaType, .live)
        XCTAssertEqual(live.duration, .seconds(3))
        XCTAssertEqual(live.triggerOffset, .milliseconds(1500))
        XCTAssertEqual(live.path, photo.path, "the still stays the asset's file")
        let motion = try XCTUnwrap(library.motionFilePath(of: live)?.string)
        XCTAssertTrue(motion.hasSuffix("/\(live.id).motion.mp4"), motion)
        XCTAssertEqual(try clips.decodedFrames(motion), 45)
        XCTAssertEqual(try library.assets(library.query(for: .livePhotos)).map(\.id), [live.id])
        XCTAssertEqual(try library.count(AssetQuery.all.filter(.mediaType(.photo))), 0)
        XCTAssertTrue(try library.fsck(verifyChecksums: true).isClean, "\((try? library.fsck().lines) ?? [])")
        // The thumbnail is the still's.
        XCTAssertEqual(
            try library.thumbnail(of: live, size: PixelSize(width: 80, height: 80), mode: .aspectFit).size,
            PixelSize(width: 80, height: 48))
        XCTAssertThrowsError(try library.attachMotion(to: live.id, clip: FilePath(clip), stillOffset: .zero))
        {
            XCTAssertTrue("\($0)".contains("not a photo"), "\($0)")
        }
    }

    func testExportWritesTheApplePairAndTheMotionPhotoThatExiftoolRecognises() throws {
        let (directory, library, photo, clip) = try photoAndClip()
        let live = try library.attachMotion(
            to: photo.id, clip: FilePath(clip), stillOffset: .milliseconds(1500))
        let out = directory.appendingPathComponent("stick").path
        let report = try library.export(AssetQuery.all, to: FilePath(out))
        let names = report.written.map { URL(fileURLWithPath: $0).lastPathComponent }
        let stem = String(try XCTUnwrap(names.first).dropLast(4))
        XCTAssertEqual(names, [stem + ".jpg", stem + ".mov", stem + ".MP.jpg"])
        let identifier = live.id.uppercased()

        // Apple: the still's maker note and the MOV's mdta key hold one content identifier.
        let still = try exif(out + "/" + stem + ".jpg")
        // exiftool 12.57 (Debian 12) names MakerApple tag 17 MediaGroupUUID; later ones ContentIdentifier.
        XCTAssertEqual(
            (still["Apple:ContentIdentifier"] ?? still["Apple:MediaGroupUUID"]) as? String, identifier,
            "\(still.keys.sorted())")
        XCTAssertEqual(still["IFD0:Make"] as? String, "Pinhole", "the rest of the EXIF is kept")
        let mov = try exif(out + "/" + stem + ".mov")
        XCTAssertEqual(mov["Keys:ContentIdentifier"] as? String, identifier, "\(mov.keys.sorted())")
        XCTAssertEqual(mov["QuickTime:MajorBrand"] as? String, "Apple QuickTime (.MOV/QT)")
        XCTAssertEqual(try clips.decodedFrames(out + "/" + stem + ".mov"), 45)
        XCTAssertEqual(try ClipTools.decodeErrors(out + "/" + stem + ".mov"), "")

        // Google: one JPEG, XMP MotionPhoto, the timestamp, the directory, the MP4 at the end.
        let motionPhoto = out + "/" + stem + ".MP.jpg"
        let google = try exif(motionPhoto, structured: true)
        XCTAssertEqual("\(google["XMP-GCamera:MotionPhoto"] ?? "")", "1", "\(google.keys.sorted())")
        XCTAssertEqual("\(google["XMP-GCamera:MotionPhotoPresentationTimestampUs"] ?? "")", "1500000")
        let items = (google["XMP-Container:Directory"] as? [[String: Any]] ?? []).compactMap {
            $0["Item"] as? [String: Any]
        }
        XCTAssertEqual(items.map { "\($0["Semantic"] ?? "")" }, ["Primary", "MotionPhoto"], "\(google)")
        XCTAssertEqual(items.last?["Mime"] as? String, "video/mp4")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: motionPhoto))
        let length = Int("\(items.last?["Length"] ?? "")") ?? -1
        XCTAssertGreaterThan(length, 1000)
        XCTAssertLessThan(length, bytes.count)
        guard length > 0, length < bytes.count else { return }
        let video = directory.appendingPathComponent("trailer.mp4").path
        try bytes.suffix(length).write(to: URL(fileURLWithPath: video))
        XCTAssertEqual(try clips.decodedFrames(video), 45)
        XCTAssertEqual(try ClipTools.decodeErrors(video), "")
        XCTAssertEqual(Array(bytes.prefix(2)), [0xFF, 0xD8])
        XCTAssertNotNil(
            try? JPEGDecoder.decode(Array(bytes), pixelLimit: 160 * 96), "the still still decodes")

        // Redone, the same bytes: nothing rewritten.
        XCTAssertEqual(try library.export(AssetQuery.all, to: FilePath(out)).skipped.count, 3)

        // The Apple pair imports as one Live Photo (the Motion Photo, moved aside here, would be
        // a second one: testAMotionPhotoRoundTripsExportToImportAsOneLivePhoto).
        try FileManager.default.moveItem(atPath: motionPhoto, toPath: video + ".MP.jpg")
        let other = try clips.open(directory, name: "other")
        let imported = try other.importFolder(FilePath(out))
        XCTAssertEqual(imported.failures, [:])
        XCTAssertEqual(imported.imported.count, 1)
        XCTAssertEqual(try other.count(AssetQuery.all.filter(.mediaType(.live))), 1)
        let copy = try XCTUnwrap(try other.assets(AssetQuery.all.filter(.mediaType(.live))).first)
        XCTAssertEqual(copy.duration, .seconds(3))
        XCTAssertEqual(try clips.decodedFrames(try XCTUnwrap(other.motionFilePath(of: copy)?.string)), 45)
        XCTAssertTrue(try other.fsck().isClean, "\((try? other.fsck().lines) ?? [])")
    }

    func testAMotionPhotoRoundTripsExportToImportAsOneLivePhoto() throws {
        let (directory, library, photo, clip) = try photoAndClip()
        let live = try library.attachMotion(
            to: photo.id, clip: FilePath(clip), stillOffset: .milliseconds(1500))
        let out = directory.appendingPathComponent("stick").path
        let written = try library.export(AssetQuery.all, to: FilePath(out)).written
        let motionPhoto = try XCTUnwrap(written.first { $0.hasSuffix(".MP.jpg") })
        let alone = directory.appendingPathComponent("motion-photo-only")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: motionPhoto, toPath: alone.appendingPathComponent("PXL_1.MP.jpg").path)
        // The video is streamed from the file in pieces of 4 KB, never held whole.
        var options = LibraryOptions()
        options.streamChunkBytes = 4096
        let other = try clips.open(directory, name: "other", options: options)
        let imported = try other.importFolder(FilePath(alone.path))
        XCTAssertEqual(imported.failures, [:])
        XCTAssertEqual(imported.imported.count, 1)
        let copy = try XCTUnwrap(try imported.imported.first.flatMap { try other.asset(id: $0) })
        let motionFile = try XCTUnwrap(other.motionFilePath(of: copy))
        let videoBytes = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: motionFile.string)[.size] as? Int)
        let streamed = other.streamed.withLock { $0 }
        XCTAssertEqual(streamed.bytes, Int64(videoBytes), "the video went through the stream")
        XCTAssertEqual(streamed.reads, (videoBytes + 4095) / 4096)
        XCTAssertEqual(streamed.largestRead, 4096)
        XCTAssertGreaterThan(videoBytes, 4 * 4096, "a clip of several pieces")
        XCTAssertEqual(copy.mediaType, .live)
        XCTAssertEqual(copy.triggerOffset, .milliseconds(1500), "the XMP presentation time")
        XCTAssertEqual(copy.duration, .seconds(3))
        XCTAssertEqual(try clips.decodedFrames(try XCTUnwrap(other.motionFilePath(of: copy)?.string)), 45)
        // The still comes back as it was stored (the Motion Photo's XMP and the video taken off).
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: other.layout.absolute(copy.path))),
            try Data(contentsOf: URL(fileURLWithPath: library.layout.absolute(live.path))))
        XCTAssertEqual(try other.assets(other.query(for: .livePhotos)).map(\.id), [copy.id])
        XCTAssertTrue(try other.fsck(verifyChecksums: true).isClean, "\((try? other.fsck().lines) ?? [])")
        // Imported again: a duplicate, nothing changes.
        XCTAssertEqual(try other.importFolder(FilePath(alone.path)).duplicates.count, 1)
        // A Motion Photo whose directory gives a length that does not fit is an ordinary JPEG
        // with bytes after its end: refused, as before, nothing imported.
        var broken = try Array(Data(contentsOf: URL(fileURLWithPath: motionPhoto)))
        broken.removeLast(10)
        let bad = directory.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try Data(broken).write(to: bad.appendingPathComponent("PXL_2.MP.jpg"))
        let refused = try other.importFolder(FilePath(bad.path))
        XCTAssertEqual(refused.imported.count, 0)
        XCTAssertEqual(refused.failures.count, 1, "\(refused)")
        XCTAssertEqual(try other.count(AssetQuery.all), 1)
    }

    func testPurgeTakesBothResourcesAndACutBeforeTheIndexIsAttachedAtTheNextOpen() throws {
        let directory: URL
        let photo: Asset
        let motion: String
        do {
            let (where_, library, still, clip) = try photoAndClip()
            (directory, photo) = (where_, still)
            // A cut after the motion clip was written, before the index said Live Photo.
            motion = library.layout.absolute(LibraryLayout.motionPath(ofStill: photo.path))
            try FileManager.default.copyItem(atPath: clip, toPath: motion)
            XCTAssertFalse(try library.fsck().isClean, "an unattached motion clip is an orphan")
        }
        let reopened = try clips.open(directory)
        let live = try XCTUnwrap(try reopened.asset(id: photo.id))
        XCTAssertEqual(live.mediaType, .live, "\(reopened.recoveryReport.lines)")
        XCTAssertEqual(live.duration, .seconds(3))
        XCTAssertTrue(try reopened.fsck().isClean, "\((try? reopened.fsck().lines) ?? [])")

        try reopened.delete([live.id])
        try reopened.purge([live.id])
        XCTAssertFalse(FileManager.default.fileExists(atPath: motion))
        XCTAssertFalse(FileManager.default.fileExists(atPath: reopened.fileURLPath(of: live).string))
        XCTAssertTrue(try reopened.fsck().isClean, "\((try? reopened.fsck().lines) ?? [])")
    }
}
