// Photo mode's start: the encoder opens beside the recording's lane while the lane creates the file and takes the first image.

import Dispatch
import PinholeCore
import PinholeSim
import XCTest

@testable import PinholeCapture

final class RecorderStartTests: XCTestCase {
    /// The simulated backend whose encoders open only when the test lets them (or fail to).
    final class GatedBackend: VideoBackend, @unchecked Sendable {
        let inner = SimulatedVideoBackend()
        let gate: DispatchSemaphore
        let failure: VideoError?
        init(open: Bool = false, failure: VideoError? = nil) {
            gate = DispatchSemaphore(value: open ? 1 : 0)
            self.failure = failure
        }
        func available(_ encoder: VideoEncoderKind) -> Bool { inner.available(encoder) }
        func makeEncoder(_ settings: ClipEncoderSettings) throws(VideoError) -> any ClipEncoder {
            gate.wait()
            defer { gate.signal() }
            if let failure { throw failure }
            return try inner.makeEncoder(settings)
        }
        func makeWriter(
            settings: ClipEncoderSettings, codecHeader: [UInt8], metadata: ClipMetadata, sink: any ClipSink
        ) throws(VideoError) -> any ClipWriter {
            try inner.makeWriter(settings: settings, codecHeader: codecHeader, metadata: metadata, sink: sink)
        }
    }

    let loop = EventLoop.virtual()
    let store = MemoryClipStore()
    var events: [RecordingEvent] = []

    func recorder(_ backend: any VideoBackend) throws -> ClipRecorder {
        var settings = VideoSettings()
        settings.size = PixelSize(width: 160, height: 96)
        settings.fps = 10
        settings.bitRate = 800_000
        let pick = try settings.pickEncoder(hardwareEncoder: false) { $0 == .libx264 }
        let recorder = ClipRecorder(
            loop: loop, backend: backend, store: store, settings: settings, pick: pick)
        recorder.onEvent = { [unowned self] in self.events.append($0) }
        return recorder
    }

    func testPhotoModeTakesTheFirstImageWhileTheEncoderIsStillOpening() throws {
        let backend = GatedBackend()
        let recorder = try recorder(backend)
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        let frame = VideoOnlyFrame(1, size: recorder.settings.size)
        recorder.frameArrived(frame)
        // The encoder cannot open until the gate opens: the lane takes the frame's image
        // meanwhile. (In series the lane would wait for the encoder first and never get here:
        // the timeout only ends that deadlock.)
        let taken = frame.taken.wait(timeout: .now() + .seconds(20))
        backend.gate.signal()
        XCTAssertEqual(taken, .success, "the first image was taken while the encoder was opening")
        XCTAssertEqual(events, [], "not started before its encoder is open")
        loop.finishWork()
        XCTAssertEqual(events, [.started(id: 1)])
        XCTAssertEqual(
            recorder.status?.progress.frames, 1, "the frame went into the clip once the encoder was open")
        XCTAssertNotNil(recorder.status?.openedAt)
        var stopped: Result<SavedClip, any Error>?
        try recorder.stop { stopped = $0 }
        loop.finishWork()
        XCTAssertNotNil(try stopped?.get())
        XCTAssertEqual(store.clips.first?.facts?.frameCount, 1)
    }

    func testAnEncoderThatCannotOpenEndsTheClipWithoutStartingItAndDiscardsItsFile() throws {
        let recorder = try recorder(GatedBackend(open: true, failure: .unavailable("no libav here")))
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        recorder.frameArrived(VideoOnlyFrame(1, size: recorder.settings.size))
        loop.finishWork()
        XCTAssertEqual(events.count, 1, "\(events)")
        guard case .failed(1, let message)? = events.first else { return XCTFail("\(events)") }
        XCTAssertTrue(message.contains("no libav here"), message)
        XCTAssertNil(recorder.status, "idle again: the next record start may try again")
        XCTAssertEqual(store.clips.map(\.discarded), [true])
    }

    func testAStopBeforeTheEncoderIsOpenDiscardsTheEmptyClip() throws {
        let backend = GatedBackend()
        let recorder = try recorder(backend)
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        var stopped: Result<SavedClip, any Error>?
        try recorder.stop { stopped = $0 }
        backend.gate.signal()
        loop.finishWork()
        XCTAssertThrowsError(try stopped?.get())
        XCTAssertNil(recorder.status)
        XCTAssertEqual(store.clips.map(\.discarded), [true])
        // Whether `.started` came first depends on which thread posted first; the clip ends failed.
        guard case .failed(1, _)? = events.last else { return XCTFail("\(events)") }
    }
}
