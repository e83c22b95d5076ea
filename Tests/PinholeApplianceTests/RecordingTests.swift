// Recording from the simulated camera's video stream through the fake video backend, on virtual time.

import Foundation
import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeSim
import XCTest

final class RecordingTests: XCTestCase {
    let loop = EventLoop.virtual()
    let world = SimWorld()
    let store = MemoryClipStore()
    var events: [RecordingEvent] = []
    var provider: SimulatedCameraProvider?
    var camera: SimulatedCamera?
    var settings: VideoSettings = {
        var settings = VideoSettings()
        settings.size = PixelSize(width: 160, height: 96)
        settings.fps = 10
        settings.bitRate = 800_000
        return settings
    }()

    /// The simulated backend, counting the encoders opened and closed.
    final class CountingBackend: VideoBackend, @unchecked Sendable {
        let inner = SimulatedVideoBackend()
        let lock = NSLock()
        var opened = 0
        func available(_ encoder: VideoEncoderKind) -> Bool { inner.available(encoder) }
        func makeEncoder(_ settings: ClipEncoderSettings) throws(VideoError) -> any ClipEncoder {
            lock.withLock { opened += 1 }
            return try inner.makeEncoder(settings)
        }
        func makeWriter(
            settings: ClipEncoderSettings, codecHeader: [UInt8], metadata: ClipMetadata, sink: any ClipSink
        ) throws(VideoError) -> any ClipWriter {
            try inner.makeWriter(settings: settings, codecHeader: codecHeader, metadata: metadata, sink: sink)
        }
        var openedCount: Int { lock.withLock { opened } }
    }
    var backend: any VideoBackend = SimulatedVideoBackend()

    /// A started simulated camera with a video stream, feeding `recorder`.
    func rig(ringSeconds: Double = 0) throws -> (ClipRecorder, SimulatedCamera) {
        let provider = SimulatedCameraProvider(loop: loop, world: world, specs: [.back])
        let camera = try XCTUnwrap(try provider.open(id: SimCameraSpec.back.id) as? SimulatedCamera)
        self.provider = provider
        self.camera = camera
        let pick = try settings.pickEncoder(hardwareEncoder: false) { $0 == .libx264 }
        let recorder = ClipRecorder(
            loop: loop, backend: backend, store: store, settings: settings, pick: pick,
            ringSeconds: ringSeconds)
        recorder.onEvent = { [unowned self] in self.events.append($0) }
        _ = try camera.configure(
            StreamRequest(stillSize: SimCameraSpec.back.pixelArraySize, video: recorder.videoStream))
        try camera.start { frame in
            recorder.frameArrived(frame)
            frame.release()
        }
        return (recorder, camera)
    }

    func testAThreeSecondRecordingHoldsFpsTimesDurationFramesFromAKeyframe() throws {
        let (recorder, _) = try rig()
        let id = try recorder.start(metadata: ClipMetadata(creationTime: loop.wallNow))
        loop.advance(by: .seconds(3))
        var saved: SavedClip?
        try recorder.stop { saved = try? $0.get() }
        loop.advance(by: .milliseconds(1))
        let clip = try XCTUnwrap(saved)
        XCTAssertEqual(clip.frameCount, 30, accuracy: 1)
        let facts = try XCTUnwrap(store.clips.first?.facts)
        // The simulated encoder refuses a frame not at the video size: a still would end the clip.
        XCTAssertEqual(facts.size, settings.size)
        XCTAssertEqual(events.first, .started(id: id))
        XCTAssertEqual(events.last, .saved(id: id, clip: clip, note: nil))
        // The first packet is the forced keyframe (four times the size): 4 × 10,000 bytes.
        XCTAssertEqual(store.clips[0].bytes[4], 0x65)
        XCTAssertNil(recorder.status)
    }

    func testPreRollStartsAtLeastPreSecondsBeforeTheStart() throws {
        let (recorder, _) = try rig(ringSeconds: 3)
        loop.advance(by: .seconds(5))
        let startedAt = loop.now
        try recorder.start(preSeconds: 2, metadata: ClipMetadata(creationTime: nil))
        loop.advance(by: .seconds(1))
        try recorder.stop { _ in }
        loop.advance(by: .milliseconds(1))
        let facts = try XCTUnwrap(store.clips.first?.facts)
        // From the keyframe at or before start − 2 s: the trigger lies ≥ 2 s into the clip.
        XCTAssertGreaterThanOrEqual(facts.triggerMicroseconds, 2_000_000)
        XCTAssertLessThan(facts.triggerMicroseconds, 3_000_000 + 1)
        XCTAssertGreaterThanOrEqual(facts.frameCount, 30)
        _ = startedAt
    }

    func testThePreRollGoesIntoTheClipButNotBackIntoTheRing() throws {
        let (recorder, _) = try rig(ringSeconds: 3)
        loop.advance(by: .seconds(5))
        let start = loop.now
        try recorder.start(preSeconds: 2, metadata: ClipMetadata(creationTime: nil))
        loop.advance(by: .milliseconds(450))
        let status = try XCTUnwrap(recorder.status)
        let first = try XCTUnwrap(status.firstFrameMilliseconds)
        // The first frame is the keyframe at or before start − 2 s (with the 3 s ring, every 0.3 s).
        XCTAssertLessThanOrEqual(first, -2000)
        XCTAssertGreaterThanOrEqual(first, -3000)
        XCTAssertEqual(status.startLatencyMilliseconds, 0, "the pre-roll is in the file when it opens")
        var window: [EncodedPacket] = []
        recorder.ringWindow(from: start - .seconds(2), through: loop.now) { window = $0 }
        loop.runUntilIdle()
        let stamps = window.map(\.presentationMicroseconds)
        XCTAssertFalse(stamps.isEmpty)
        XCTAssertEqual(stamps, stamps.sorted())
        XCTAssertEqual(Set(stamps).count, stamps.count, "each frame once in the ring")
        let limit = PreRollRing.byteLimit(bitRate: 800_000, seconds: 3)
        XCTAssertLessThanOrEqual(status.progress.ringPeakBytes, limit)
        XCTAssertGreaterThan(status.progress.ringBytes, 0)
    }

    func testAnArmedRingHoldsItsWholePreRollWithinTwelveTenthsOfTheBitRate() throws {
        // keyframe_s 1 would make the ring hold 3 s plus up to a second (1.33 × bit rate × 3 s
        // at the average rate, more with keyframes): the armed ring caps keyframes at 0.3 s and
        // the rate, so 3 s from a keyframe fit in 1.2 × bit rate × 3 s at every moment.
        let (recorder, _) = try rig(ringSeconds: 3)
        XCTAssertEqual(recorder.encoderSettings.keyframeInterval, 3)
        loop.advance(by: .milliseconds(10_050))
        try recorder.start(preSeconds: 3, metadata: ClipMetadata(creationTime: nil))
        loop.advance(by: .milliseconds(500))
        let status = try XCTUnwrap(recorder.status)
        XCTAssertLessThanOrEqual(try XCTUnwrap(status.firstFrameMilliseconds), -3000)
        XCTAssertEqual(status.progress.ringShortfalls, 0, "the byte limit never cut the ring below 3 s")
        XCTAssertLessThanOrEqual(
            status.progress.ringPeakBytes, Int(1.2 * 800_000 / 8 * 3), "1.2 × bit rate × pre_s")
    }

    func testAnArmedRingCapsKeyframesAndRateSoItsSpanAndOneGroupFit() {
        let video = VideoSettings()  // 1080p30, 6 Mbps, keyframe_s 1
        let plain = video.encoderSettings(.libx264)
        XCTAssertEqual(plain.keyframeInterval, 30)
        XCTAssertNil(plain.rateBufferBits, "without a ring, the average bit rate only")
        XCTAssertNil(video.ringKeyframeNote(0))
        for span in [1.0, 3, 5, 30] {
            let armed = video.encoderSettings(.libx264, ringSeconds: span)
            let group = Double(armed.keyframeInterval) / 30
            XCTAssertLessThanOrEqual(group, 0.2 * span)
            // What the ring holds at most: the span and one group at the bit rate, plus the
            // rate buffer (the most the stream may run ahead of the bit rate).
            let worst = Double(armed.bitRate) * (span + group) + Double(armed.rateBufferBits ?? .max)
            XCTAssertLessThanOrEqual(
                worst / 8, Double(PreRollRing.byteLimit(bitRate: armed.bitRate, seconds: span)) + 1)
        }
        XCTAssertEqual(video.encoderSettings(.libx264, ringSeconds: 3).keyframeInterval, 11)
        XCTAssertNotNil(video.ringKeyframeNote(3))
    }

    func testAnEncoderKeptReadyIsOpenBeforeTheStartAndAgainAfterTheClip() throws {
        let counting = CountingBackend()
        backend = counting
        let (recorder, _) = try rig()
        loop.advance(by: .milliseconds(500))
        XCTAssertEqual(counting.openedCount, 0, "without a ring or video mode no encoder runs")
        recorder.keepEncoderReady(true)
        loop.advance(by: .milliseconds(500))
        XCTAssertEqual(counting.openedCount, 1, "opened before any record start")
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        loop.advance(by: .seconds(1))
        XCTAssertEqual(counting.openedCount, 1, "the clip took the open encoder")
        try recorder.stop { _ in }
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(counting.openedCount, 2, "the clip drained it: the next one is opened at once")
        recorder.keepEncoderReady(false)
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        loop.advance(by: .seconds(1))
        XCTAssertEqual(counting.openedCount, 3, "let go: the next clip opens its own")
        XCTAssertNotNil(store.clips.first?.facts, "the first clip was saved")
    }

    func testWithoutARingTheClipStartsAtTheNextFrame() throws {
        let (recorder, _) = try rig()
        loop.advance(by: .milliseconds(1050))
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        loop.advance(by: .milliseconds(200))
        let status = try XCTUnwrap(recorder.status)
        // Frames expose every 100 ms from 0 and arrive a period later: the first to arrive after
        // the start at 1050 ms (at 1100 ms) is the one exposed from 1000 ms, forced a keyframe.
        XCTAssertEqual(status.firstFrameMilliseconds, -50)
        // It is in the file as it arrives: within one frame period of the start.
        XCTAssertEqual(status.startLatencyMilliseconds, 50)
    }

    func testTheMaximumDurationEndsTheClip() throws {
        let (recorder, _) = try rig()
        try recorder.start(maxSeconds: 2, metadata: ClipMetadata(creationTime: nil))
        loop.advance(by: .seconds(4))
        guard case .saved(_, let clip, nil)? = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(clip.frameCount, 20)
        XCTAssertNil(recorder.status)
    }

    func testAFullDiskEndsTheRecordingAndKeepsWhatWasRecorded() throws {
        store.capacity = 60_000
        let (recorder, _) = try rig()
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        loop.advance(by: .seconds(3))
        guard case .saved(_, let clip, let note?)? = events.last else { return XCTFail("\(events)") }
        XCTAssertTrue(note.contains("no space left on device"), note)
        XCTAssertGreaterThan(clip.frameCount, 0)
        XCTAssertNil(recorder.status)
        XCTAssertEqual(store.clips[0].facts?.cutShort, note)
    }

    func testBadRequestsAreRefusedAndChangeNothing() throws {
        let (recorder, _) = try rig()
        XCTAssertThrowsError(try recorder.stop { _ in }) {
            XCTAssertEqual($0 as? RecordingError, .notRecording)
        }
        for (max, pre) in [(0.0, 0.0), (.nan, 0), (1e12, 0), (10, .nan), (10, 1e9), (10, -1)] {
            XCTAssertThrowsError(
                try recorder.start(maxSeconds: max, preSeconds: pre, metadata: .init(creationTime: nil)))
        }
        XCTAssertThrowsError(try recorder.start(preSeconds: 2, metadata: .init(creationTime: nil))) {
            XCTAssertEqual($0 as? RecordingError, .preRollTooLong(asked: 2, ring: 0))
        }
        loop.runUntilIdle()
        XCTAssertNil(recorder.status)
        XCTAssertTrue(store.clips.isEmpty)
        let id = try recorder.start(metadata: .init(creationTime: nil))
        XCTAssertThrowsError(try recorder.start(metadata: .init(creationTime: nil))) {
            XCTAssertEqual($0 as? RecordingError, .alreadyRecording(id: id))
        }
        loop.runUntilIdle()
        XCTAssertEqual(store.clips.count, 1)
    }

    func testSettingsTheCameraDoesNotListAreRefusedWithTheChoices() throws {
        let camera = SimCameraSpec.back.info
        var settings = VideoSettings()
        settings.size = PixelSize(width: 1000, height: 500)
        XCTAssertThrowsError(try settings.validate(for: camera)) { error in
            XCTAssertEqual(
                "\(error)",
                "the camera offers no 1000x500 video stream: choose one of 1920x1080, 1280x720, 640x480, 320x240, 160x96"
            )
        }
        settings = VideoSettings()
        settings.fps = 60
        XCTAssertThrowsError(try settings.validate(for: camera)) {
            XCTAssertEqual("\($0)", "video rate 60 fps is not offered: choose 10, 15, 24, 25, 30")
        }
        settings = VideoSettings()
        settings.bitRate = 50_000_000
        XCTAssertThrowsError(try settings.validate(for: camera)) {
            XCTAssertEqual($0 as? VideoSettingsError, .bitRateOutOfRange(50_000_000))
        }
        XCTAssertNoThrow(try VideoSettings().validate(for: camera))
    }

    func testAutoPicksTheHardwareEncoderOnlyWhereItExists() throws {
        let settings = VideoSettings()
        XCTAssertEqual(try settings.pickEncoder(hardwareEncoder: true) { _ in true }.kind, .v4l2m2m)
        XCTAssertEqual(try settings.pickEncoder(hardwareEncoder: false) { _ in true }.kind, .libx264)
        var forced = settings
        forced.encoder = .v4l2m2m
        XCTAssertThrowsError(try forced.pickEncoder(hardwareEncoder: false) { _ in true })
    }

    /// At start the choice reads the board's devices only (libav is not loaded until a recording
    /// opens the encoder, which confirms it).
    func testTheChoiceAtStartNeedsOnlyTheBoardsEncoderDevice() throws {
        let settings = VideoSettings()
        XCTAssertEqual(try settings.pickEncoder(hardwareEncoder: true).kind, .v4l2m2m)
        XCTAssertEqual(try settings.pickEncoder(hardwareEncoder: false).kind, .libx264)
        var forced = settings
        forced.encoder = .v4l2m2m
        XCTAssertThrowsError(try forced.pickEncoder(hardwareEncoder: false)) {
            XCTAssertTrue("\($0)".contains("this board has no V4L2 H.264 encoder"), "\($0)")
        }
        forced.encoder = .libx264
        XCTAssertEqual(try forced.pickEncoder(hardwareEncoder: true).kind, .libx264)
    }
}
