// Tests of the one EINTR policy, the thread helper and the lock.

import PinholeSystem
import SystemPackage
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class SystemCallTests: XCTestCase {
    func testInterruptedCallsAreRetriedAndOtherFailuresThrowTheirErrno() {
        var calls = 0
        let result = try? retryingInterrupts { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        XCTAssertEqual(result, 7)
        XCTAssertEqual(calls, 3)

        calls = 0
        XCTAssertThrowsError(
            try retryingInterrupts { () -> Int32 in
                calls += 1
                errno = EBADF
                return -1
            }
        ) { XCTAssertEqual($0 as? Errno, .badFileDescriptor) }
        XCTAssertEqual(calls, 1, "only EINTR is retried")
    }

    func testAThreadRunsItsBodyAndJoinWaitsForIt() throws {
        let lock = ConditionLock()
        nonisolated(unsafe) var ran = false
        let thread = try SystemThread.start {
            lock.withLock { ran = true }
        }
        thread.join()
        XCTAssertTrue(lock.withLock { ran })
    }

    func testTheLockWakesAWaiterAndATimedWaitReturnsAtItsDeadline() throws {
        let lock = ConditionLock()
        nonisolated(unsafe) var ready = false
        let thread = try SystemThread.start {
            lock.withLock {
                while !ready { lock.wait() }
            }
        }
        lock.withLock {
            ready = true
            lock.broadcast()
        }
        thread.join()
        // A deadline already passed: the wait returns instead of blocking.
        lock.lock()
        lock.wait(untilMonotonicNanoseconds: 0)
        lock.unlock()
    }
}
