// The capture machine driven directly: events in, actions out, with hand-made frames and no camera.

import PinholeCore
import XCTest

@testable import PinholeAppliance
@testable import PinholeCapture

/// A frame with fixed metadata that records its release.
final class FakeFrame: CameraFrame, @unchecked Sendable {
    let metadata: FrameMetadata
    private(set) var released = false

    init(_ sequence: UInt64, startMs: Int64, exposureMs: Int64 = 10) {
        metadata = FrameMetadata(
            sequence: sequence, sensorTimestamp: Instant(nanoseconds: startMs * 1_000_000),
            exposureTime: .milliseconds(exposureMs), analogueGain: 1)
    }

    init(metadata: FrameMetadata) { self.metadata = metadata }

    func stillImage() throws -> RawImage { throw CaptureError.failed("a fake frame has no pixels") }
    func viewfinderImage() throws -> RawImage? { nil }
    func release() { released = true }
}

/// The actions in a form tests can compare.
enum Step: Equatable {
    case release(UInt64)
    case process(UInt64, ticket: UInt64, FrameSelection, flash: Bool)
    case arm(UInt64)
    case cancel(UInt64)
    case flash(Bool)
    case fail(UInt64, CaptureMachine.Failure)
    case ended(UInt64, taken: Int, atFrameRate: Int, skipped: Int)

    static func of(_ actions: [CaptureMachine.Action]) -> [Step] {
        actions.map {
            switch $0 {
            case .release(let frame): return .release(frame.metadata.sequence)
            case .process(let frame, let press, let selection, let flashFired):
                return .process(
                    frame.metadata.sequence, ticket: press.ticket.number, selection, flash: flashFired)
            case .armTimeout(let ticket): return .arm(ticket.number)
            case .cancelTimeout(let ticket): return .cancel(ticket.number)
            case .setFlash(let lit): return .flash(lit)
            case .fail(let ticket, let failure): return .fail(ticket.number, failure)
            case .burstEnded(let ticket, let report):
                return .ended(
                    ticket.number, taken: report.taken, atFrameRate: report.atFrameRate,
                    skipped: report.framesSkipped)
            }
        }
    }
}

final class CaptureMachineTests: XCTestCase {
    private func press(_ ticket: UInt64, atMs ms: Int64) -> CaptureMachine.Press {
        CaptureMachine.Press(ticket: CaptureTicket(ticket), pressedAt: Instant(nanoseconds: ms * 1_000_000))
    }

    private func arrive(_ machine: inout CaptureMachine, _ frame: FakeFrame, aeHeld: Bool = false) -> [Step] {
        Step.of(machine.frameArrived(frame, aeHeld: aeHeld, maxSettleFrames: 4))
    }

    private let now = Instant(nanoseconds: 0)

    func testTheRingKeepsTheNewestFramesAndReleasesOlderOnes() {
        var machine = CaptureMachine(ringSize: 2)
        XCTAssertEqual(arrive(&machine, FakeFrame(0, startMs: 0)), [])
        XCTAssertEqual(arrive(&machine, FakeFrame(1, startMs: 33)), [])
        XCTAssertEqual(arrive(&machine, FakeFrame(2, startMs: 66)), [.release(0)])
        XCTAssertEqual(machine.ring.map(\.metadata.sequence), [1, 2])
        XCTAssertFalse(machine.isBusy)
    }

    func testAPressMeetsTheRingedFrameThatWasExposingAtIt() {
        var machine = CaptureMachine(ringSize: 2)
        _ = arrive(&machine, FakeFrame(0, startMs: 0))
        _ = arrive(&machine, FakeFrame(1, startMs: 33))
        let steps = Step.of(machine.press(press(1, atMs: 38), fireFlash: false, now: now))
        XCTAssertEqual(steps, [.process(1, ticket: 1, .exposingAtPress, flash: false)])
        XCTAssertEqual(machine.inFlight, 1)
        XCTAssertEqual(machine.ring.map(\.metadata.sequence), [0])
        XCTAssertEqual(Step.of(machine.encoded()), [])
        XCTAssertTrue(machine.isBusy, "encoded, not yet saved")
        XCTAssertEqual(Step.of(machine.saved(CaptureTicket(1), wasEncoded: true)), [])
        XCTAssertFalse(machine.isBusy)
    }

    func testAPressBetweenExposuresWaitsForTheNextFrame() {
        var machine = CaptureMachine(ringSize: 2)
        _ = arrive(&machine, FakeFrame(0, startMs: 0))
        XCTAssertEqual(Step.of(machine.press(press(7, atMs: 20), fireFlash: false, now: now)), [.arm(7)])
        XCTAssertTrue(machine.isBusy)
        XCTAssertEqual(
            arrive(&machine, FakeFrame(1, startMs: 33)),
            [.cancel(7), .process(1, ticket: 7, .nextAfterPress, flash: false)])
        XCTAssertTrue(machine.pending.isEmpty)
    }

    func testAWaitingPressTimesOutOnceAndALateTimeoutIsIgnored() {
        var machine = CaptureMachine(ringSize: 2)
        _ = machine.press(press(1, atMs: 500), fireFlash: false, now: now)
        XCTAssertEqual(Step.of(machine.timedOut(CaptureTicket(1))), [.fail(1, .noFrame)])
        XCTAssertEqual(Step.of(machine.timedOut(CaptureTicket(1))), [])
        XCTAssertFalse(machine.isBusy)
        XCTAssertEqual(arrive(&machine, FakeFrame(0, startMs: 600)), [], "the frame goes to the ring")
    }

    func testTheFlashWaitsForALitFrameWhoseExposureHasSettled() {
        var machine = CaptureMachine(ringSize: 2)
        let fired = Instant(nanoseconds: 40_000_000)
        XCTAssertEqual(
            Step.of(machine.press(press(1, atMs: 40), fireFlash: true, now: fired)), [.flash(true), .arm(1)])
        XCTAssertEqual(
            Step.of(machine.press(press(2, atMs: 41), fireFlash: true, now: fired)), [.fail(2, .flashBusy)])
        XCTAssertEqual(arrive(&machine, FakeFrame(1, startMs: 33)), [], "started before the torch lit")
        XCTAssertEqual(arrive(&machine, FakeFrame(2, startMs: 66, exposureMs: 30)), [], "first lit frame")
        XCTAssertEqual(
            arrive(&machine, FakeFrame(3, startMs: 99, exposureMs: 30)),
            [.cancel(1), .flash(false), .process(3, ticket: 1, .flashLit, flash: true)])
        XCTAssertNil(machine.flash)
    }

    func testWithExposureHeldTheFirstLitFrameServesTheFlash() {
        var machine = CaptureMachine(ringSize: 2)
        _ = machine.press(press(1, atMs: 10), fireFlash: true, now: Instant(nanoseconds: 10_000_000))
        XCTAssertEqual(
            arrive(&machine, FakeFrame(1, startMs: 33), aeHeld: true),
            [.cancel(1), .flash(false), .process(1, ticket: 1, .flashLit, flash: true)])
    }

    func testAFlashThatNeverSeesAFrameDarkensTheTorchOnTimeout() {
        var machine = CaptureMachine(ringSize: 2)
        _ = machine.press(press(1, atMs: 10), fireFlash: true, now: now)
        XCTAssertEqual(Step.of(machine.timedOut(CaptureTicket(1))), [.flash(false), .fail(1, .noFrame)])
    }

    func testStoppingReleasesTheRingEndsTheFlashAndFailsWaitingPresses() {
        var machine = CaptureMachine(ringSize: 2)
        _ = arrive(&machine, FakeFrame(0, startMs: 0))
        _ = machine.press(press(1, atMs: 500), fireFlash: false, now: now)
        _ = machine.press(press(2, atMs: 500), fireFlash: true, now: now)
        XCTAssertEqual(
            Step.of(machine.streamStopped(failWaiting: true)),
            [.release(0), .cancel(2), .flash(false), .fail(2, .stopped), .cancel(1), .fail(1, .stopped)])
        XCTAssertFalse(machine.isBusy)
    }

    func testASwitchKeepsWaitingPressesForTheNextCamera() {
        var machine = CaptureMachine(ringSize: 2)
        _ = machine.press(press(1, atMs: 500), fireFlash: false, now: now)
        XCTAssertEqual(Step.of(machine.streamStopped(failWaiting: false)), [])
        XCTAssertEqual(
            arrive(&machine, FakeFrame(0, startMs: 520)),
            [.cancel(1), .process(0, ticket: 1, .nextAfterPress, flash: false)])
    }

    func testARestartReleasesTheRingButKeepsTheFlashWaiting() {
        var machine = CaptureMachine(ringSize: 2)
        _ = arrive(&machine, FakeFrame(0, startMs: 0))
        _ = machine.press(press(1, atMs: 50), fireFlash: true, now: Instant(nanoseconds: 50_000_000))
        XCTAssertEqual(Step.of(machine.streamRestarted()), [.release(0)])
        XCTAssertNotNil(machine.flash)
    }

    func testEarlierPressesAreServedFirstByOneFrame() {
        var machine = CaptureMachine(ringSize: 2)
        _ = machine.press(press(1, atMs: 10), fireFlash: false, now: now)
        _ = machine.press(press(2, atMs: 12), fireFlash: false, now: now)
        XCTAssertEqual(
            arrive(&machine, FakeFrame(0, startMs: 33)),
            [.cancel(1), .process(0, ticket: 1, .nextAfterPress, flash: false)])
        XCTAssertEqual(
            arrive(&machine, FakeFrame(1, startMs: 66)),
            [.cancel(2), .process(1, ticket: 2, .nextAfterPress, flash: false)])
    }

    private func manual(_ sequence: UInt64, startMs: Int64, exposureUs: Int64) -> FakeFrame {
        FakeFrame(
            metadata: FrameMetadata(
                sequence: sequence, sensorTimestamp: Instant(nanoseconds: startMs * 1_000_000),
                exposureTime: .microseconds(exposureUs), analogueGain: 2))
    }

    func testAPressAfterAChangeSkipsTheRingAndOldFramesAndTakesTheFirstFrameShowingIt() {
        var machine = CaptureMachine(ringSize: 2)
        _ = arrive(&machine, manual(0, startMs: 0, exposureUs: 20_000))
        machine.controlsChanged(
            ControlRequirement(
                changedAt: Instant(nanoseconds: 40_000_000),
                expected: ["ExposureTime": .int(4000), "AnalogueGain": .double(2), "AeEnable": .bool(false)],
                delayFrames: 2))
        XCTAssertEqual(
            Step.of(machine.press(press(1, atMs: 41), fireFlash: false, now: now)), [.arm(1)],
            "not from the ring")
        XCTAssertEqual(
            arrive(&machine, manual(1, startMs: 33, exposureUs: 20_000)), [], "started before the change")
        XCTAssertEqual(
            arrive(&machine, manual(2, startMs: 66, exposureUs: 20_000)), [.release(0)], "old values: ringed")
        XCTAssertEqual(
            arrive(&machine, manual(3, startMs: 99, exposureUs: 4010)),
            [.cancel(1), .process(3, ticket: 1, .controlsInForce, flash: false)],
            "AeEnable is not reported: counted two frames; the exposure is within rounding")
        XCTAssertNil(machine.requirement)
    }

    func testAChangeNoFrameConfirmsIsGivenUpAndSaidSo() {
        var machine = CaptureMachine(ringSize: 2)
        var change = ControlRequirement(
            changedAt: Instant(nanoseconds: 0), expected: ["ExposureTime": .int(4000)], delayFrames: 2)
        change.giveUpAfter = 3
        machine.controlsChanged(change)
        _ = machine.press(press(1, atMs: 1), fireFlash: false, now: now)
        for n in 0..<4 {
            let steps = arrive(&machine, manual(UInt64(n), startMs: 10 + 33 * Int64(n), exposureUs: 9000))
            XCTAssertFalse(steps.contains { if case .process = $0 { true } else { false } }, "frame \(n)")
        }
        XCTAssertEqual(
            arrive(&machine, manual(4, startMs: 200, exposureUs: 9000)).filter { $0 != .release(2) },
            [.cancel(1), .process(4, ticket: 1, .controlsUnconfirmed, flash: false)])
    }

    func testPressesBeforeTheChangeKeepZeroShutterLag() {
        var machine = CaptureMachine(ringSize: 2)
        _ = machine.press(press(1, atMs: 5), fireFlash: false, now: now)
        machine.controlsChanged(
            ControlRequirement(
                changedAt: Instant(nanoseconds: 6_000_000), expected: ["ExposureTime": .int(4000)]))
        XCTAssertEqual(
            arrive(&machine, manual(0, startMs: 0, exposureUs: 20_000)),
            [.cancel(1), .process(0, ticket: 1, .exposingAtPress, flash: false)])
    }
}
