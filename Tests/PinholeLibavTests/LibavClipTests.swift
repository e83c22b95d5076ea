// Real libx264 and libavformat: a clip's frames all decode, its frame count and metadata read back.

import Foundation
import PinholeCore
import PinholeLibav
import XCTest

final class LibavClipTests: XCTestCase {
    let settings = ClipEncoderSettings(
        size: PixelSize(width: 160, height: 96), fps: 15, bitRate: 300_000, keyframeInterval: 15,
        encoder: .libx264)
    let metadata = ClipMetadata(
        creationTime: WallTime(secondsSince1970: 1_795_698_000, nanoseconds: 250_000_000),
        latitude: 48.8577, longitude: 2.295, altitude: 35, rotationDegrees: 90, make: "Pinhole",
        model: "Simulated IMX477", clockTrust: .gps)

    /// Encodes `frames` frames into `path`; returns the sink (its fragment boundaries).
    func record(frames: Int, to path: String, capacity: Int = .max) throws -> RecordingFileSink {
        let backend = LibavVideoBackend()
        let encoder = try backend.makeEncoder(settings)
        let sink = try RecordingFileSink(path: path)
        sink.capacity = capacity
        let writer = try backend.makeWriter(
            settings: settings, codecHeader: encoder.codecHeader, metadata: metadata, sink: sink)
        for index in 0..<frames {
            let time = Int64(index) * settings.frameMicroseconds
            for packet in try encoder.encode(
                ClipTools.frame(settings.size, index: index), presentationMicroseconds: time,
                forceKeyframe: false)
            {
                try writer.write(packet)
            }
        }
        for packet in try encoder.finish() { try writer.write(packet) }
        try writer.finish()
        return sink
    }

    func testEveryFrameDecodesAndTheCountIsFpsTimesDuration() throws {
        XCTAssertTrue(LibavVideoBackend().available(.libx264), "libavcodec has no libx264")
        let path = try ClipTools.temporaryDirectory(for: self).appendingPathComponent("clip.mp4").path
        let sink = try record(frames: 3 * settings.fps, to: path)
        XCTAssertEqual(try ClipTools.decodeErrors(path), "")
        let probe = try ClipTools.probe(path)
        let stream = try XCTUnwrap((probe["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(stream["codec_name"] as? String, "h264")
        XCTAssertEqual(stream["width"] as? Int, 160)
        XCTAssertEqual(stream["height"] as? Int, 96)
        XCTAssertEqual(stream["nb_read_frames"] as? String, "45")
        let duration = Double((probe["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        XCTAssertEqual(duration * Double(settings.fps), 45, accuracy: 1)
        // A fragment per keyframe (one a second): the header, two boundaries, the trailer.
        XCTAssertEqual(sink.boundaries.count, 4, "fragment boundaries: \(sink.boundaries)")
    }

    func testMetadataReadsBackThroughFfprobeAndExiftool() throws {
        let path = try ClipTools.temporaryDirectory(for: self).appendingPathComponent("clip.mp4").path
        _ = try record(frames: settings.fps, to: path)
        let probe = try ClipTools.probe(path)
        let tags = try XCTUnwrap((probe["format"] as? [String: Any])?["tags"] as? [String: String])
        XCTAssertEqual(tags["creation_time"], "2026-11-26T13:00:00.250000Z")
        XCTAssertEqual(tags["com.apple.quicktime.location.ISO6709"], "+48.8577+002.2950+035.000/")
        // The udta location box (loci), as libavformat reads it back.
        XCTAssertEqual(tags["location"], "+48.8577+002.2950+35.000000/")
        XCTAssertEqual(tags["com.apple.quicktime.make"], "Pinhole")
        XCTAssertEqual(tags["com.apple.quicktime.model"], "Simulated IMX477")
        XCTAssertEqual(tags[ClipMetadata.clockTrustKey], "gps")
        let stream = try XCTUnwrap((probe["streams"] as? [[String: Any]])?.first)
        let sideData = try XCTUnwrap(stream["side_data_list"] as? [[String: Any]])
        // ffprobe reports the display matrix counter-clockwise: -90 is a clockwise quarter turn.
        XCTAssertEqual(sideData.first?["rotation"] as? Int, -90)

        let exif = try ClipTools.run("exiftool", ["-json", "-n", "-a", "-G1", path])
        XCTAssertEqual(exif.status, 0, exif.errors)
        let object = try JSONSerialization.jsonObject(with: Data(exif.output.utf8)) as? [[String: Any]]
        let fields = try XCTUnwrap(object?.first)
        XCTAssertEqual(fields["Keys:Make"] as? String, "Pinhole")
        XCTAssertEqual(fields["Keys:Model"] as? String, "Simulated IMX477")
        XCTAssertEqual(fields["Composite:Rotation"] as? Int, 90)
        XCTAssertEqual(fields["QuickTime:CreateDate"] as? String, "2026:11:26 13:00:00")
        XCTAssertEqual(fields["Composite:GPSLatitude"] as? Double ?? 0, 48.8577, accuracy: 0.0001)
        XCTAssertEqual(fields["Composite:GPSLongitude"] as? Double ?? 0, 2.295, accuracy: 0.0001)
    }

    func testAFileCutAtAFragmentBoundaryPlaysEveryFrameBeforeIt() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let path = directory.appendingPathComponent("clip.mp4").path
        let sink = try record(frames: 3 * settings.fps, to: path)
        // The power went at the second boundary: what was durable then is what is left.
        let cut = directory.appendingPathComponent("cut.mp4").path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(sink.boundaries[2])
        try bytes.write(to: URL(fileURLWithPath: cut))
        XCTAssertEqual(try ClipTools.decodeErrors(cut), "")
        let stream = try XCTUnwrap((try ClipTools.probe(cut)["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(stream["nb_read_frames"] as? String, "30")
    }

    func testAFullDiskStopsTheClipWithAStorageError() throws {
        let path = try ClipTools.temporaryDirectory(for: self).appendingPathComponent("clip.mp4").path
        XCTAssertThrowsError(try record(frames: 3 * settings.fps, to: path, capacity: 4000)) { error in
            XCTAssertEqual(error as? VideoError, .storage("no space left on the test device"))
        }
    }

    func testAFrameOfTheWrongSizeIsRefusedWithTheSizes() throws {
        let encoder = try LibavVideoBackend().makeEncoder(settings)
        XCTAssertThrowsError(
            try encoder.encode(
                ClipTools.frame(PixelSize(width: 64, height: 48), index: 0), presentationMicroseconds: 0,
                forceKeyframe: false)
        ) { error in
            XCTAssertEqual(error as? VideoError, .badFrame("64x48 given, the encoder was opened for 160x96"))
        }
    }

    func testAnEncoderLibavcodecLacksIsAClearError() {
        var settings = settings
        settings.size = PixelSize(width: 0, height: 0)
        XCTAssertThrowsError(try LibavVideoBackend().makeEncoder(settings)) { error in
            guard case .encoder(let reason) = error as? VideoError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.hasPrefix("libx264:"), reason)
        }
    }
    /// The encoder reads the caller's planes themselves (libx264's input is not copied by
    /// libavcodec): each decoded picture is the frame sent at its time, plane by plane.
    func testEachDecodedPictureIsTheFrameSentPlaneByPlane() throws {
        let directory = try ClipTools.temporaryDirectory(for: self)
        let path = directory.appendingPathComponent("clip.mp4").path
        let frames = 2 * settings.fps
        _ = try record(frames: frames, to: path)
        let raw = directory.appendingPathComponent("frames.yuv").path
        // -noautorotate: the clip's display matrix turns it a quarter; the planes are as sent.
        let result = try ClipTools.run(
            "ffmpeg",
            ["-v", "error", "-noautorotate", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        XCTAssertEqual(result.status, 0, result.errors)
        let decoded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let (width, height) = (settings.size.width, settings.size.height)
        let sizes = [width * height, width * height / 4, width * height / 4]
        XCTAssertEqual(decoded.count, frames * sizes.reduce(0, +))
        var offset = 0
        for index in 0..<frames {
            let sent = ClipTools.frame(settings.size, index: index)
            for (plane, size) in sizes.enumerated() {
                let picture = decoded[offset..<(offset + size)]
                let difference = zip(picture, sent.planes[plane].bytes.prefix(size)).reduce(0) {
                    $0 + abs(Int($1.0) - Int($1.1))
                }
                // Lossy, but close: a wrong plane, a stale or a foreign frame is off by tens.
                XCTAssertLessThan(Double(difference) / Double(size), 3, "frame \(index) plane \(plane)")
                offset += size
            }
        }
    }
}
