// Bursts in the capture machine, driven directly: consecutive frames, the bound on frames in flight, the report.

import PinholeCore
import XCTest

@testable import PinholeAppliance
@testable import PinholeCapture

final class BurstMachineTests: XCTestCase {
    private let ticket = CaptureTicket(7)

    private func press(atMs ms: Int64) -> CaptureMachine.Press {
        CaptureMachine.Press(ticket: ticket, pressedAt: Instant(nanoseconds: ms * 1_000_000))
    }

    /// Frame `n` starts at n × 33 ms and exposes for 10 ms.
    private func frame(_ n: UInt64) -> FakeFrame { FakeFrame(n, startMs: Int64(n) * 33) }

    private func arrive(_ machine: inout CaptureMachine, _ n: UInt64) -> [Step] {
        Step.of(machine.frameArrived(frame(n), aeHeld: true, maxSettleFrames: 4))
    }

    func testABurstTakesThePressedFrameFromTheRingThenEveryFrameAfterIt() {
        var machine = CaptureMachine(ringSize: 2, maxInFlight: 4)
        XCTAssertEqual(arrive(&machine, 0), [])
        XCTAssertEqual(arrive(&machine, 1), [])
        // Pressed at 35 ms, while frame 1 (33–43 ms) was exposing: frame 0 goes back, frame 1 is
        // the first shot, and every later frame is the next shot until three are taken.
        let start = Step.of(machine.startBurst(press(atMs: 35), count: 3))
        XCTAssertEqual(
            start, [.arm(7), .release(0), .cancel(7), .process(1, ticket: 7, .exposingAtPress, flash: false)])
        XCTAssertEqual(arrive(&machine, 2), [.process(2, ticket: 7, .burst, flash: false)])
        XCTAssertEqual(
            arrive(&machine, 3),
            [
                .process(3, ticket: 7, .burst, flash: false),
                .ended(7, taken: 3, atFrameRate: 3, skipped: 0),
            ])
        XCTAssertNil(machine.burst)
        XCTAssertEqual(machine.inFlight, 3)
        XCTAssertEqual(arrive(&machine, 4), [], "after the burst, frames go back to the ring")
    }

    func testFramesArrivingWhileTheBoundIsInFlightAreSkippedAndCountedNeverQueued() {
        var machine = CaptureMachine(ringSize: 2, maxInFlight: 2)
        _ = machine.startBurst(press(atMs: 0), count: 4)
        XCTAssertEqual(
            arrive(&machine, 0), [.cancel(7), .process(0, ticket: 7, .exposingAtPress, flash: false)])
        XCTAssertEqual(arrive(&machine, 1), [.process(1, ticket: 7, .burst, flash: false)])
        // Two in flight, the bound: frames 2 and 3 go straight back to the camera.
        XCTAssertEqual(arrive(&machine, 2), [.release(2)])
        XCTAssertEqual(arrive(&machine, 3), [.release(3)])
        XCTAssertEqual(machine.inFlight, 2)
        XCTAssertEqual(machine.ring.count, 0, "a skipped frame is not kept either")
        _ = machine.saved(ticket, wasEncoded: false)
        XCTAssertEqual(arrive(&machine, 4), [.process(4, ticket: 7, .burst, flash: false)])
        XCTAssertEqual(arrive(&machine, 5), [.release(5)])
        _ = machine.saved(ticket, wasEncoded: false)
        _ = machine.saved(ticket, wasEncoded: false)
        XCTAssertEqual(
            arrive(&machine, 6),
            [.process(6, ticket: 7, .burst, flash: false), .ended(7, taken: 4, atFrameRate: 2, skipped: 3)])
        XCTAssertLessThanOrEqual(machine.inFlight, 2)
    }

    func testAnEncodedShotFreesItsPlaceInFlightAndWaitsWithinItsOwnBound() {
        var machine = CaptureMachine(ringSize: 2, maxInFlight: 2, maxWaiting: 2)
        _ = machine.startBurst(press(atMs: 0), count: 8)
        XCTAssertEqual(
            arrive(&machine, 0), [.cancel(7), .process(0, ticket: 7, .exposingAtPress, flash: false)])
        XCTAssertEqual(arrive(&machine, 1), [.process(1, ticket: 7, .burst, flash: false)])
        XCTAssertEqual(arrive(&machine, 2), [.release(2)], "two frames being encoded: the bound")
        // Shot 1's encode ended: its copy is gone, so the next frame is taken although shot 1
        // is not yet synced and indexed.
        _ = machine.encoded()
        XCTAssertEqual([machine.inFlight, machine.waiting], [1, 1])
        XCTAssertEqual(arrive(&machine, 3), [.process(3, ticket: 7, .burst, flash: false)])
        _ = machine.encoded()
        XCTAssertEqual(arrive(&machine, 4), [.process(4, ticket: 7, .burst, flash: false)])
        // Both encodes end: no frame is being encoded, but four shots wait for their sync and
        // index (two of them beyond the encodes' bound): the waiting bound skips the frame.
        _ = machine.encoded()
        _ = machine.encoded()
        XCTAssertEqual([machine.inFlight, machine.waiting], [0, 4])
        XCTAssertEqual(arrive(&machine, 5), [.release(5)])
        XCTAssertTrue(machine.isBusy)
        _ = machine.saved(ticket, wasEncoded: true)
        XCTAssertEqual(arrive(&machine, 6), [.process(6, ticket: 7, .burst, flash: false)])
        let ended = machine.stopBurst()
        XCTAssertEqual(Step.of(ended), [.cancel(7), .ended(7, taken: 5, atFrameRate: 2, skipped: 2)])
        guard case .burstEnded(_, let report)? = ended.last else { return XCTFail("no report") }
        XCTAssertEqual(report.framesSkippedWaiting, 1)
        XCTAssertEqual(
            report.storageNote,
            "storage could not keep up: 2 of 5 shots at the frame rate, then 2 frames skipped: "
                + "1 while 2 photos were being encoded (`[capture] frames_in_flight`), "
                + "1 while 2 encoded photos waited for their sync and index")
    }

    func testAHeldShutterBurstRunsUntilStoppedAndASecondBurstIsRefused() {
        var machine = CaptureMachine(ringSize: 2, maxInFlight: 4)
        _ = machine.startBurst(press(atMs: 0), count: nil)
        // Nothing is saved meanwhile: four frames are taken (the bound), two skipped.
        for n in 0..<6 { _ = arrive(&machine, UInt64(n)) }
        let second = CaptureMachine.Press(ticket: CaptureTicket(8), pressedAt: .zero)
        XCTAssertEqual(Step.of(machine.startBurst(second, count: 2)), [.fail(8, .burstBusy)])
        XCTAssertEqual(
            Step.of(machine.stopBurst()), [.cancel(7), .ended(7, taken: 4, atFrameRate: 4, skipped: 2)])
        XCTAssertEqual(Step.of(machine.stopBurst()), [])
    }

    func testABurstWithNoFrameTimesOutAndOneCutByTheCameraStoppingEndsWithItsShots() {
        var machine = CaptureMachine(ringSize: 2)
        _ = machine.startBurst(press(atMs: 0), count: 5)
        XCTAssertEqual(Step.of(machine.timedOut(ticket)), [.fail(7, .noFrame)])
        XCTAssertFalse(machine.isBusy)
        _ = machine.startBurst(press(atMs: 0), count: 5)
        _ = arrive(&machine, 0)
        XCTAssertEqual(Step.of(machine.timedOut(ticket)), [], "once shooting, a burst does not time out")
        XCTAssertEqual(
            Step.of(machine.streamStopped(failWaiting: true)),
            [.cancel(7), .ended(7, taken: 1, atFrameRate: 1, skipped: 0)])
    }
}
