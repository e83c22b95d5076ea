// The recorder end to end: the simulated camera's video stream through real libx264 into an MP4 ffprobe reads.

import Foundation
import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeLibav
import PinholeSim
import XCTest
import SystemPackage

/// Clips as files in a directory.
final class DirectoryClipStore: ClipStore, @unchecked Sendable {
    final class Clip: RecordingFileSinkClip {}
    let directory: URL
    var clips: [Clip] = []
    init(directory: URL) { self.directory = directory }
    func beginClip(startedAt: WallTime?) throws -> any ClipRecording {
        let clip = try Clip(path: directory.appendingPathComponent("clip\(clips.count).mp4").path)
        clips.append(clip)
        return clip
    }
}

/// A file sink that keeps the facts it was completed with.
class RecordingFileSinkClip: RecordingFileSink, ClipRecording {
    var facts: ClipFacts?
    let path: String
    override init(path: String) throws {
        self.path = path
        try super.init(path: path)
    }
    func complete(_ facts: ClipFacts) throws -> SavedClip {
        self.facts = facts
        return SavedClip(
            id: "clip", path: FilePath(path), byteCount: Int64(size), frameCount: facts.frameCount,
            durationSeconds: Double(facts.durationMicroseconds) / 1_000_000)
    }
    func discard() {}
}

final class RecorderClipTests: XCTestCase {
    func testARecordingFromTheSimulatedCameraDecodesEveryFrame() throws {
        let store = DirectoryClipStore(directory: try ClipTools.temporaryDirectory(for: self))
        let rig = try SimulatedRecording(store: store, ringSeconds: 2)
        let (loop, camera, recorder) = (rig.loop, rig.camera, rig.recorder)
        loop.advance(by: .seconds(3))
        try recorder.start(
            preSeconds: 1.5, metadata: ClipMetadata(creationTime: loop.wallNow, make: "Pinhole"))
        loop.advance(by: .seconds(2))
        var saved: SavedClip?
        try recorder.stop { saved = try? $0.get() }
        loop.advance(by: .milliseconds(1))
        camera.stop()
        let clip = try XCTUnwrap(saved)
        XCTAssertEqual(try ClipTools.decodeErrors(clip.path.string), "")
        let stream = try XCTUnwrap(
            (try ClipTools.probe(clip.path.string)["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(stream["nb_read_frames"] as? String, String(clip.frameCount))
        // 2 s after the start plus at least 1.5 s before it, from a keyframe (one a second).
        XCTAssertGreaterThanOrEqual(clip.frameCount, 35)
        XCTAssertLessThanOrEqual(clip.frameCount, 45)
        let facts = try XCTUnwrap(store.clips.first?.facts)
        XCTAssertGreaterThanOrEqual(facts.triggerMicroseconds, 1_500_000)
    }
}
