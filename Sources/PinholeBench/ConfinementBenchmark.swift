// Loop confinement in a release build: a read off the loop trips, and what a checked read costs.

import Foundation
import PinholeCore
import Synchronization

/// Checks that `LoopBound.value` and `EventLoop.schedule` are checked in this (release) build,
/// off the loop's thread, and times a checked `LoopBound` read against an uncontended lock.
enum ConfinementBenchmark {
    private final class Box { var count = 0 }

    /// A read through the check, not inlined into the loop (as a call site in the appliance).
    @inline(never) private static func checkedRead(_ bound: LoopBound<Box>) -> Box { bound.value }

    /// The same increment under an uncontended lock.
    @inline(never) private static func lockedIncrement(_ value: borrowing Mutex<Int>) {
        value.withLock { $0 &+= 1 }
    }

    static func run() {
        let loop = EventLoop.virtual()
        let bound = LoopBound(Box(), loop: loop)
        let tripped = Mutex<[String]>([])
        let previous = EventLoop.confinementViolation
        EventLoop.confinementViolation = { message, _, _ in tripped.withLock { $0.append(message) } }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = bound.value
            loop.schedule(after: .seconds(1)) {}
            done.signal()
        }
        done.wait()
        EventLoop.confinementViolation = previous
        let messages = tripped.withLock { $0 }
        print(
            "confinement: off the loop in this build: \(messages.count) of 2 checks tripped"
                + (messages.isEmpty ? " (NOT CHECKED)" : " (\(messages.joined(separator: "; ")))"))

        // Cost: reads of a checked LoopBound against the other way to guard a value shared
        // with other threads, an uncontended lock, each through a call the optimizer may not
        // fold into the loop.
        let locked = Mutex(0)
        let reads = 10_000_000
        let clock = ContinuousClock()
        var start = clock.now
        for _ in 0..<reads { checkedRead(bound).count &+= 1 }
        let checked = clock.now - start
        start = clock.now
        for _ in 0..<reads { lockedIncrement(locked) }
        let lockedTime = clock.now - start
        let each = LibraryBench.seconds(checked) * 1e9 / Double(reads)
        let ratio = LibraryBench.seconds(checked) / max(1e-12, LibraryBench.seconds(lockedTime))
        print(
            "confinement: checked LoopBound read + increment: \((each * 100).rounded() / 100) ns each; "
                + "\((ratio * 100).rounded() / 100)× an increment under an uncontended lock (\(reads) reads, \(bound.value.count) counted)"
        )
    }
}
