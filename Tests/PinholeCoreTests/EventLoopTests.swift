// Tests of the event loop's virtual time, ordering, cancellation and offloaded work.

import XCTest
@testable import PinholeCore

final class EventLoopTests: XCTestCase {
    func testTimersRunInDeadlineOrderAndTimeMovesOnlyWhenAdvanced() {
        let loop = EventLoop.virtual()
        var log: [String] = []
        loop.schedule(after: .milliseconds(30)) { log.append("c@\(loop.now.nanoseconds / 1_000_000)") }
        loop.schedule(after: .milliseconds(10)) { log.append("a@\(loop.now.nanoseconds / 1_000_000)") }
        loop.schedule(after: .milliseconds(10)) { log.append("b@\(loop.now.nanoseconds / 1_000_000)") }
        loop.advance(by: .milliseconds(20))
        XCTAssertEqual(log, ["a@10", "b@10"])
        XCTAssertEqual(loop.now, Instant(nanoseconds: 20_000_000))
        loop.advance(by: .milliseconds(20))
        XCTAssertEqual(log, ["a@10", "b@10", "c@30"])
    }

    func testCancelledTimerDoesNotRun() {
        let loop = EventLoop.virtual()
        var ran = false
        let id = loop.schedule(after: .milliseconds(5)) { ran = true }
        loop.cancel(id)
        loop.advance(by: .seconds(1))
        XCTAssertFalse(ran)
        XCTAssertEqual(loop.pendingTimerCount, 0)
    }

    func testTimersScheduledByTimersRunWithinTheSameAdvance() {
        let loop = EventLoop.virtual()
        var ticks: [Int64] = []
        func tick() {
            ticks.append(loop.now.nanoseconds / 1_000_000)
            if ticks.count < 4 { loop.schedule(after: .milliseconds(25), tick) }
        }
        loop.schedule(after: .zero, tick)
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(ticks, [0, 25, 50, 75])
    }

    func testOffloadedWorkCompletesBeforeTimeMoves() {
        let loop = EventLoop.virtual()
        var order: [String] = []
        loop.offload(
            { (1...1000).reduce(0, +) }, then: { sum in order.append("work \(sum) @\(loop.now.nanoseconds)") }
        )
        loop.schedule(after: .milliseconds(1)) { order.append("timer") }
        loop.advance(by: .milliseconds(2))
        XCTAssertEqual(order, ["work 500500 @0", "timer"])
    }

    func testPostFromAnotherThreadRunsOnTheLoop() {
        let loop = EventLoop.virtual()
        let box = LoopBound(Counter(), loop: loop)
        let done = expectation(description: "posted")
        Thread.detachNewThread {
            loop.post { box.value.count += 1 }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        loop.runUntilIdle()
        XCTAssertEqual(box.value.count, 1)
    }

    func testVirtualRunJumpsToTimersOnlyWhileBusy() {
        let loop = EventLoop.virtual()
        var fired = false
        loop.schedule(after: .seconds(60)) {
            fired = true
            loop.stop()
        }
        loop.run(isBusy: { true })
        XCTAssertTrue(fired)
        XCTAssertEqual(loop.now, Instant.zero + .seconds(60))
    }

    func testWallTimeFollowsVirtualTime() {
        let loop = EventLoop.virtual(
            wallStart: WallTime(secondsSince1970: 1_767_268_800, utcOffsetSeconds: 3600))
        loop.advance(by: .milliseconds(1500))
        XCTAssertEqual(loop.wallNow.secondsSince1970, 1_767_268_801)
        XCTAssertEqual(loop.wallNow.nanoseconds, 500_000_000)
        XCTAssertEqual(loop.wallNow.exifDateTime, "2026:01:01 13:00:01")
        XCTAssertEqual(loop.wallNow.exifOffset, "+01:00")
    }
}

final class Counter { var count = 0 }
