// The recorder's frame queue: a place is freed where the lane finishes a frame, not when the loop runs its completion.

import Dispatch
import PinholeCore
import PinholeSim
import XCTest

@testable import PinholeCapture

final class RecorderQueueTests: XCTestCase {
    let loop = EventLoop.virtual()
    let store = MemoryClipStore()

    func recorder(queueLimit: Int) throws -> ClipRecorder {
        var settings = VideoSettings()
        settings.size = PixelSize(width: 160, height: 96)
        settings.fps = 10
        settings.bitRate = 800_000
        let pick = try settings.pickEncoder(hardwareEncoder: false) { $0 == .libx264 }
        return ClipRecorder(
            loop: loop, backend: SimulatedVideoBackend(), store: store, settings: settings, pick: pick,
            queueLimit: queueLimit)
    }

    /// Waits (no time passes, nothing on the loop runs) until the lane has finished every job
    /// handed to it so far: the lane runs its jobs in order, so a job of its own marks the point.
    func waitForTheLane(_ recorder: ClipRecorder) {
        let done = DispatchSemaphore(value: 0)
        recorder.lane.run { done.signal() }
        done.wait()
    }

    func testFramesTheLaneFinishedFreeTheirPlacesBeforeTheLoopRunsTheirCompletions() throws {
        let recorder = try recorder(queueLimit: 3)
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        loop.finishWork()
        let size = recorder.settings.size
        // A busy loop: the lane encodes three frames while the loop runs none of their
        // completions (nothing here drains the loop's queue).
        for sequence in 1...3 { recorder.frameArrived(VideoOnlyFrame(UInt64(sequence), size: size)) }
        waitForTheLane(recorder)
        XCTAssertEqual(recorder.slots.inUse, 0, "the lane freed the places of the frames it finished")
        for sequence in 4...6 { recorder.frameArrived(VideoOnlyFrame(UInt64(sequence), size: size)) }
        XCTAssertEqual(
            recorder.status?.droppedFrames, 0, "the encoder kept up: no frame dropped for the loop's sake")
        loop.finishWork()
        XCTAssertEqual(recorder.status?.progress.frames, 6)
        XCTAssertEqual(recorder.slots.inUse, 0)
    }

    func testFramesBeyondTheQueueWhileTheLaneIsBusyAreDroppedAndCounted() throws {
        let recorder = try recorder(queueLimit: 2)
        try recorder.start(metadata: ClipMetadata(creationTime: nil))
        loop.finishWork()
        let size = recorder.settings.size
        // The lane is held busy: nothing it was handed can finish.
        let hold = DispatchSemaphore(value: 0)
        recorder.lane.run { hold.wait() }
        for sequence in 1...5 { recorder.frameArrived(VideoOnlyFrame(UInt64(sequence), size: size)) }
        XCTAssertEqual(recorder.status?.droppedFrames, 3, "two waited, three found the queue full")
        hold.signal()
        loop.finishWork()
        XCTAssertEqual(recorder.status?.progress.frames, 2)
        XCTAssertEqual(recorder.status?.droppedFrames, 3)
    }
}
