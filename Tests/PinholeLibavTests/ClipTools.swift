// Test support: synthetic YUV frames, a file sink that records its fragment boundaries, ffprobe and exiftool.

import Foundation
import PinholeTestTools
import PinholeCore
import XCTest

/// A ClipSink over a file that records the size at each fragment boundary.
class RecordingFileSink: ClipSink {
    let handle: FileHandle
    private(set) var size = 0
    private(set) var boundaries: [Int] = []
    /// Fail every write once this many bytes are in (a full disk).
    var capacity = Int.max

    init(path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
        guard size + bytes.count <= capacity else { throw .storage("no space left on the test device") }
        handle.write(Data(bytes))
        size += bytes.count
    }

    func fragmentCompleted() throws(VideoError) {
        try? handle.synchronize()
        boundaries.append(size)
    }
}

enum ClipTools {
    /// A frame whose pattern moves with `index` (so the encoder has work to do).
    static func frame(_ size: PixelSize, index: Int) -> RawImage {
        RawImage.yuv420(width: size.width, height: size.height) { plane, width, height, buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let value =
                        plane == 0
                        ? (x * 3 + y * 2 + index * 5) : (128 + (plane == 1 ? x - index : y + index))
                    buffer[y * width + x] = UInt8(truncatingIfNeeded: value)
                }
            }
        }
    }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(for test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinhole-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Runs a tool; its standard output, standard error and status. Throws when the tool is
    /// missing, so that a machine without it fails these tests instead of passing them empty.
    static func run(_ tool: String, _ arguments: [String]) throws -> (
        output: String, errors: String, status: Int32
    ) {
        let result = try ExternalTool.run(tool, arguments)
        return (result.outputText, result.errorText, result.status)
    }

    /// ffprobe's JSON for the file: stream (counted frames, side data) and format (tags, duration).
    static func probe(_ path: String) throws -> [String: Any] {
        let result = try run(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                "stream=codec_name,width,height,r_frame_rate,nb_read_frames:stream_side_data=rotation:format=duration:format_tags",
                "-of", "json", path,
            ])
        XCTAssertEqual(result.status, 0, result.errors)
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] ?? [:]
    }

    /// Decodes every frame with ffmpeg; returns what it reported on standard error (empty: clean).
    static func decodeErrors(_ path: String) throws -> String {
        let result = try run("ffmpeg", ["-v", "error", "-xerror", "-i", path, "-f", "null", "-"])
        return result.status == 0 ? result.errors : "status \(result.status): \(result.errors)"
    }
}
