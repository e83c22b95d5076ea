// Tests that loop-only operations are checked at run time: off the loop's thread they trip.

import Foundation
import Synchronization
import XCTest

@testable import PinholeCore

final class LoopConfinementTests: XCTestCase {
    /// What the confinement checks reported (instead of trapping) during one test.
    private final class Violations: Sendable {
        let lines = Mutex<[String]>([])
    }

    private let violations = Violations()

    override func setUp() {
        super.setUp()
        EventLoop.confinementViolation = { [violations] message, _, _ in
            violations.lines.withLock { $0.append(message) }
        }
    }

    override func tearDown() {
        EventLoop.confinementViolation = { message, file, line in
            preconditionFailure(message, file: file, line: line)
        }
        super.tearDown()
    }

    /// Runs `body` on a new thread and waits for it.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = expectation(description: "other thread")
        Thread.detachNewThread {
            body()
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
    }

    private var recorded: [String] { violations.lines.withLock { $0 } }

    func testOnTheLoopNothingTrips() {
        let loop = EventLoop.virtual()
        let box = LoopBound(Counter(), loop: loop)
        let id = loop.schedule(after: .seconds(1)) { box.value.count += 1 }
        loop.cancel(id)
        loop.offload({ 1 }, then: { box.value.count += $0 })
        loop.advance(by: .seconds(2))
        XCTAssertEqual(box.value.count, 1)
        XCTAssertTrue(loop.inLoop)
        XCTAssertEqual(recorded, [])
    }

    func testLoopBoundValueReadOffTheLoopTrips() {
        let loop = EventLoop.virtual()
        let box = LoopBound(Counter(), loop: loop)
        onAnotherThread { _ = box.value }
        XCTAssertEqual(recorded, ["LoopBound.value used off its event loop's thread"])
    }

    func testScheduleCancelAndOffloadOffTheLoopTrip() {
        let loop = EventLoop.virtual()
        let id = loop.schedule(after: .seconds(1)) {}
        onAnotherThread {
            XCTAssertFalse(loop.inLoop)
            loop.schedule(after: .seconds(1)) {}
            loop.cancel(id)
        }
        XCTAssertEqual(
            recorded,
            [
                "EventLoop.schedule used off its event loop's thread",
                "EventLoop.cancel used off its event loop's thread",
            ])
        violations.lines.withLock { $0.removeAll() }
        onAnotherThread { loop.offload({ 0 }, then: { _ in }) }
        loop.runUntilIdle()
        XCTAssertEqual(recorded, ["EventLoop.offload used off its event loop's thread"])
    }

    func testPostAndStopAreFineFromAnyThread() {
        let loop = EventLoop.virtual()
        let box = LoopBound(Counter(), loop: loop)
        onAnotherThread {
            loop.post { box.value.count += 1 }
            loop.stop()
        }
        loop.runUntilIdle()
        XCTAssertEqual(box.value.count, 1)
        XCTAssertEqual(recorded, [])
    }

    func testRunMovesTheLoopToTheThreadRunningIt() {
        let loop = EventLoop.virtual()
        let started = expectation(description: "running")
        let finished = expectation(description: "stopped")
        let onLoopThread = Violations()
        Thread.detachNewThread {
            loop.post {
                onLoopThread.lines.withLock { $0.append("in loop: \(loop.inLoop)") }
                started.fulfill()
            }
            loop.run()
            finished.fulfill()
        }
        wait(for: [started], timeout: 30)
        loop.stop()
        wait(for: [finished], timeout: 30)
        XCTAssertEqual(onLoopThread.lines.withLock { $0 }, ["in loop: true"])
        XCTAssertFalse(loop.inLoop, "the creating thread gave the loop up to the thread that ran it")
        loop.schedule(after: .seconds(1)) {}  // from the test thread: no longer the loop's
        XCTAssertEqual(recorded, ["EventLoop.schedule used off its event loop's thread"])
    }
}
