// Waiting for input: a timeout returns no readiness, and a signal (EINTR) does not end the wait.

import PinholeSystem
import Synchronization
import SystemPackage
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// SIGUSR1s handled (by the handler the EINTR test installs).
private let interruptions = Atomic<Int>(0)

final class InputWaitTests: XCTestCase {
    func testAWaitForInputThatNeverComesReturnsNoneAtItsTimeout() throws {
        let pipe = try FileDescriptor.pipe(options: .closeOnExec)
        defer {
            try? pipe.readEnd.close()
            try? pipe.writeEnd.close()
        }
        XCTAssertEqual(
            try FileDescriptor.waitForInput([pipe.readEnd], timeoutMs: 1).map(\.any), [false])
        _ = try pipe.writeEnd.writeAll([1])
        XCTAssertEqual(try FileDescriptor.waitForInput([pipe.readEnd], timeoutMs: 1).map(\.readable), [true])
    }

    /// A thread blocked in the wait gets a signal whose handler was installed without
    /// SA_RESTART, so poll fails with EINTR; the wait must go on (and see the input that
    /// comes later) instead of failing.
    func testASignalDuringTheWaitDoesNotEndIt() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in _ = interruptions.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }
        let pipe = try FileDescriptor.pipe(options: .closeOnExec)
        defer {
            try? pipe.readEnd.close()
            try? pipe.writeEnd.close()
        }
        let lock = ConditionLock()
        nonisolated(unsafe) var waiter: (thread: pthread_t, id: String)?
        nonisolated(unsafe) var outcome: String?
        let thread = try SystemThread.start {
            lock.withLock {
                waiter = (pthread_self(), currentThreadID())
                lock.broadcast()
            }
            let result: String
            do {
                result =
                    "\(try FileDescriptor.waitForInput([pipe.readEnd], timeoutMs: 600_000).map(\.readable))"
            } catch {
                result = "\(error)"
            }
            lock.withLock { outcome = result }
        }
        let (handle, id) = lock.withLock {
            while waiter == nil { lock.wait() }
            return waiter!
        }
        let before = interruptions.load(ordering: .relaxed)
        waitUntilBlockedInPoll(id)
        pthread_kill(handle, SIGUSR1)
        // The handler has run once the count moves; the wait is waiting again once the thread
        // is back in poll (it never is if EINTR ended the wait).
        while interruptions.load(ordering: .relaxed) == before { sched_yield() }
        waitUntilBlockedInPoll(id)
        _ = try pipe.writeEnd.writeAll([1])
        thread.join()
        XCTAssertEqual(lock.withLock { outcome }, "[true]")
    }

    /// Waits (at most 20 s of real time) until thread `id` is blocked in poll or ppoll, as
    /// /proc/self/task/ID/syscall shows (the system call's number first), or has ended.
    private func waitUntilBlockedInPoll(_ id: String) {
        #if arch(x86_64)
            let polls: Set<Substring> = ["7", "271"]
        #else
            let polls: Set<Substring> = ["73"]
        #endif
        let path = FilePath("/proc/self/task/\(id)/syscall")
        let deadline = monotonicNanoseconds() + 20_000_000_000
        while monotonicNanoseconds() < deadline {
            guard let fd = try? FileDescriptor.open(path, .readOnly, options: .closeOnExec),
                let bytes = try? fd.closeAfter({ try fd.readToEnd() })
            else { return }  // the thread has ended: its outcome says why
            let text = String(decoding: bytes, as: UTF8.self)
            if let number = text.split(separator: " ").first, polls.contains(number) { return }
            sched_yield()  // the kernel shows no event for "entered poll": let the thread get there
        }
        XCTFail("thread \(id) never blocked in poll")
    }
}

/// The calling thread's kernel id: /proc/thread-self links to `PID/task/TID`.
private func currentThreadID() -> String {
    var link = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &link, link.count - 1)
    let target = String(decoding: link.prefix(max(0, count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(target.split(separator: "/").last ?? "")
}
