// Capture-time Live Photos: the simulated camera through real libx264, the ring's window around a still into a real library.

import Foundation
import PinholeCapture
import PinholeCore
import PinholeImaging
import PinholeLibav
import PinholeSim
import XCTest

@testable import PinholeLibrary
import SystemPackage

final class LiveCaptureTests: XCTestCase {
    let clips = LibraryClipFixtures.self

    /// The simulated camera at 160x96, 10 fps (a keyframe a second) feeding a recorder whose
    /// ring keeps `ringSeconds`, into a real library; the sensor times of every frame.
    struct Rig {
        let loop: EventLoop
        let library: PhotoLibrary
        let recorder: ClipRecorder
        let camera: any CameraDevice
        let frames: FrameTimes
        var events: [RecordingEvent] { frames.events }
    }

    final class FrameTimes {
        var times: [Instant] = []
        var events: [RecordingEvent] = []
    }

    func rig(ringSeconds: Double = 5) throws -> Rig {
        let loop = EventLoop.virtual()
        let directory = try ClipTools.temporaryDirectory(for: self)
        let library = try clips.open(directory)
        let provider = SimulatedCameraProvider(loop: loop, world: SimWorld(), specs: [.back])
        let camera = try provider.open(id: SimCameraSpec.back.id)
        var settings = VideoSettings()
        settings.size = PixelSize(width: 160, height: 96)
        settings.fps = 10
        let backend = LibavVideoBackend()
        let pick = try settings.pickEncoder(hardwareEncoder: false, libavcodecHas: backend.available)
        let recorder = ClipRecorder(
            loop: loop, backend: backend, store: LibraryClipStore(library: library), settings: settings,
            pick: pick, ringSeconds: ringSeconds)
        let frames = FrameTimes()
        recorder.onEvent = { frames.events.append($0) }
        _ = try camera.configure(
            StreamRequest(stillSize: SimCameraSpec.back.pixelArraySize, video: recorder.videoStream))
        try camera.start { frame in
            frames.times.append(frame.metadata.sensorTimestamp)
            recorder.frameArrived(frame)
            frame.release()
        }
        return Rig(loop: loop, library: library, recorder: recorder, camera: camera, frames: frames)
    }

    /// A stored photo (a real JPEG) to pair.
    func photo(in library: PhotoLibrary) throws -> String {
        var metadata = PhotoMetadata(pixelWidth: 160, pixelHeight: 96)
        metadata.make = "Pinhole"
        metadata.captureTime = WallTime(secondsSince1970: 1_795_698_001)
        let jpeg = try PhotoEncoder(quality: 90, threads: 1).encode(
            image: ClipTools.frame(PixelSize(width: 160, height: 96), index: 3), metadata: metadata)
        return try library.performChanges { _ = $0.createAsset(jpeg: jpeg, metadata: metadata) }
            .createdAssetIDs[0]
    }

    /// Frames from the last keyframe (every 10th frame since the encoder started) at or before
    /// `still` − 1.5 s through `still` + 1.5 s, and where `still` falls in them.
    func expectedWindow(_ times: [Instant], still: Instant) -> (frames: Int, offset: Duration) {
        let start = still - .milliseconds(1500)
        let end = still + .milliseconds(1500)
        let keyframe = times.indices.last { $0 % 10 == 0 && times[$0] <= start } ?? 0
        let count = times[keyframe...].filter { $0 <= end }.count
        return (count, still - times[keyframe])
    }

    func testAStillWithLiveOnBecomesALivePhotoWithTheRingsWindowAroundIt() throws {
        let rig = try rig()
        let id = try photo(in: rig.library)
        rig.loop.advance(by: .milliseconds(5050))
        let still = rig.frames.times[45]
        var outcome: Result<LiveMotion, any Error>?
        rig.recorder.pairMotion(
            photoID: id, exposure: still,
            metadata: ClipMetadata(creationTime: rig.loop.wallNow, make: "Pinhole")
        ) { outcome = $0 }
        // Nothing happens before the window's end has been encoded.
        rig.loop.advance(by: .milliseconds(1000))
        XCTAssertNil(outcome)
        rig.loop.advance(by: .milliseconds(1000))
        rig.camera.stop()
        let motion = try XCTUnwrap(outcome).get()
        let expected = expectedWindow(rig.frames.times, still: still)
        XCTAssertEqual(expected.frames, 31, "the keyframe 1.5 s before the still through 1.5 s after it")
        XCTAssertEqual(motion.window.frameCount, expected.frames)
        XCTAssertEqual(motion.window.stillOffsetMicroseconds, expected.offset.nanoseconds / 1000)
        // The library: one Live Photo, its motion clip decoded whole by ffprobe.
        let asset = try XCTUnwrap(try rig.library.asset(id: id))
        XCTAssertEqual(asset.mediaType, .live)
        XCTAssertEqual(asset.triggerOffset, expected.offset)
        XCTAssertEqual(try rig.library.assets(rig.library.query(for: .livePhotos)).map(\.id), [id])
        XCTAssertEqual(motion.file, rig.library.motionFilePath(of: asset))
        XCTAssertEqual(try clips.decodedFrames(motion.file.string), expected.frames)
        XCTAssertEqual(try ClipTools.decodeErrors(motion.file.string), "")
        XCTAssertTrue(try rig.library.fsck(verifyChecksums: true).isClean)
        XCTAssertEqual(
            rig.events, [.liveSaved(photoID: id, file: motion.file, frames: expected.frames)])
    }

    func testAStillSavedSlowerThanTheRingsSlackKeepsItsWholeWindow() throws {
        // The ring Live Photos need at a keyframe a second: 1.5 + 1.5 + 2 s; the still's save
        // takes 6 s (a 12 MP JPEG on a loaded board), so the ring has moved 6 s on when the
        // window is cut: without the hold its start (1.5 s before the still) is gone.
        let rig = try rig(ringSeconds: 5)
        let id = try photo(in: rig.library)
        rig.loop.advance(by: .milliseconds(5050))
        let still = rig.frames.times[45]
        let held = rig.recorder.holdWindow(pressedAt: still)
        rig.loop.advance(by: .milliseconds(6000))
        var outcome: Result<LiveMotion, any Error>?
        rig.recorder.pairMotion(
            photoID: id, exposure: still,
            metadata: ClipMetadata(creationTime: rig.loop.wallNow, make: "Pinhole")
        ) { outcome = $0 }
        rig.loop.advance(by: .milliseconds(500))
        rig.recorder.releaseWindow(held)
        rig.loop.advance(by: .milliseconds(500))
        rig.camera.stop()
        let motion = try XCTUnwrap(outcome).get()
        let expected = expectedWindow(rig.frames.times, still: still)
        XCTAssertEqual(expected.frames, 31)
        XCTAssertEqual(motion.window.frameCount, expected.frames)
        XCTAssertEqual(motion.window.stillOffsetMicroseconds, expected.offset.nanoseconds / 1000)
        XCTAssertEqual(try clips.decodedFrames(motion.file.string), expected.frames)
        XCTAssertEqual(try ClipTools.decodeErrors(motion.file.string), "")
        XCTAssertEqual(try rig.library.asset(id: id)?.mediaType, .live)
    }

    func testARecordingUnderWayGoesOnAndBothAreKept() throws {
        let rig = try rig()
        let id = try photo(in: rig.library)
        rig.loop.advance(by: .milliseconds(3050))
        try rig.recorder.start(metadata: ClipMetadata(creationTime: rig.loop.wallNow))
        rig.loop.advance(by: .seconds(2))
        let still = rig.frames.times[45]
        var outcome: Result<LiveMotion, any Error>?
        rig.recorder.pairMotion(photoID: id, exposure: still, metadata: ClipMetadata(creationTime: nil)) {
            outcome = $0
        }
        rig.loop.advance(by: .seconds(2))
        var saved: SavedClip?
        try rig.recorder.stop { saved = try? $0.get() }
        rig.loop.advance(by: .milliseconds(100))
        rig.camera.stop()
        let motion = try XCTUnwrap(outcome).get()
        XCTAssertEqual(motion.window.frameCount, expectedWindow(rig.frames.times, still: still).frames)
        XCTAssertEqual(try clips.decodedFrames(motion.file.string), motion.window.frameCount)
        let clip = try XCTUnwrap(saved)
        XCTAssertEqual(try clips.decodedFrames(clip.path.string), clip.frameCount)
        XCTAssertGreaterThanOrEqual(clip.frameCount, 40)
        XCTAssertEqual(try rig.library.asset(id: id)?.mediaType, .live)
        XCTAssertEqual(try rig.library.count(AssetQuery.all.filter(.mediaType(.video))), 1)
    }

    func testARingTooShortOrARecordingEndingInTheWindowLeavesAStillAndSaysWhy() throws {
        let short = try rig(ringSeconds: 2)
        let id = try photo(in: short.library)
        short.loop.advance(by: .seconds(3))
        var outcome: Result<LiveMotion, any Error>?
        short.recorder.pairMotion(
            photoID: id, exposure: short.loop.now, metadata: ClipMetadata(creationTime: nil)
        ) {
            outcome = $0
        }
        XCTAssertTrue(
            "\(try XCTUnwrap(outcome))".contains("need 5.0 s of pre-roll ring"),
            "\(String(describing: outcome))")
        XCTAssertEqual(try short.library.asset(id: id)?.mediaType, .photo)
        short.camera.stop()

        let rig = try rig()
        let second = try photo(in: rig.library)
        rig.loop.advance(by: .seconds(3))
        try rig.recorder.start(metadata: ClipMetadata(creationTime: nil))
        rig.loop.advance(by: .seconds(1))
        outcome = nil
        rig.recorder.pairMotion(
            photoID: second, exposure: rig.loop.now, metadata: ClipMetadata(creationTime: nil)
        ) {
            outcome = $0
        }
        rig.loop.advance(by: .milliseconds(500))
        try rig.recorder.stop { _ in }
        rig.loop.advance(by: .seconds(3))
        rig.camera.stop()
        guard case .failure(let error) = try XCTUnwrap(outcome) else {
            return XCTFail("a Live Photo from a reset ring")
        }
        XCTAssertTrue("\(error)".contains("holds no frames"), "\(error)")
        XCTAssertEqual(try rig.library.asset(id: second)?.mediaType, .photo)
        XCTAssertEqual(
            try rig.library.count(AssetQuery.all.filter(.mediaType(.video))), 1, "the recording is kept")
        XCTAssertTrue(rig.events.contains(.liveFailed(photoID: second, message: "\(error)")))
    }
}
