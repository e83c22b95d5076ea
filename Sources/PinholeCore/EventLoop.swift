// The single-threaded event loop every behaviour runs on, in real or virtual time.

import PinholeSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Identifies a scheduled timer so that it can be cancelled.
public struct TimerID: Hashable, Sendable {
    fileprivate let value: UInt64
}

/// A single-threaded event loop with timers, cross-thread posting and offloaded work.
///
/// All behaviour (buttons, capture, focus, console) runs on the loop's thread and reads
/// time only from it, so the same code runs against real time on a board and against
/// virtual time in tests, where `advance(by:)` moves time forward and nothing sleeps.
///
/// Only `post(_:)`, `stop()` and `offload(_:then:)`'s work closure may be used from other
/// threads; everything else must be called on the loop. That is checked in every build,
/// release included (one relaxed atomic load and `pthread_self()`): the loop belongs to the
/// thread that created it until `run()` is called, then to the thread running it, and
/// `schedule`, `cancel`, `offload`, `advance` and `LoopBound.value` — the entry points where
/// work from other threads arrives — trap anywhere else (`preconditionInLoop()`).
public final class EventLoop: @unchecked Sendable {
    /// How the loop's clock moves.
    public enum Mode: Sendable {
        /// Time is CLOCK_MONOTONIC and CLOCK_REALTIME.
        case realTime
        /// Time moves only when the loop is advanced (tests), or, in `run`, jumps to the
        /// next timer whenever the loop is busy and has nothing else to do.
        case virtual(wallStart: WallTime)
    }

    private struct Timer {
        var deadline: Instant
        var id: UInt64
        var action: () -> Void
    }

    /// The mode this loop was created with.
    public let mode: Mode
    private var virtualNow: Instant = .zero
    private var timers: [Timer] = []
    private var nextID: UInt64 = 1
    private var completions: [UInt64: (any Sendable) -> Void] = [:]

    private let lock = ConditionLock()
    private var posted: [@Sendable () -> Void] = []
    private var outstandingWork = 0
    private var outstandingLongWork = 0
    private var waitsForWork = true
    private var stopped = false
    /// One thread for work done in order (`offload`), one for long work (`offloadLong`).
    private let worker = WorkerPool(threads: 1)
    private let longWorker = WorkerPool(threads: 1)
    /// One thread per core for work that may run side by side (`offloadParallel`).
    private let pool = WorkerPool(threads: WorkerPool.onlineCores)
    /// The thread the loop belongs to (`pthread_self()` as a number).
    private let owner: Atomic<UInt>

    /// Creates a loop, owned by the calling thread until `run()`. Virtual loops start at
    /// `Instant.zero`.
    public init(mode: Mode) {
        self.mode = mode
        self.owner = Atomic(Self.currentThread())
    }

    /// A virtual-time loop starting at a fixed wall time (2026-01-01T12:00:00Z by default).
    public static func virtual(wallStart: WallTime = WallTime(secondsSince1970: 1_767_268_800)) -> EventLoop {
        EventLoop(mode: .virtual(wallStart: wallStart))
    }

    /// Whether time is virtual.
    public var isVirtual: Bool {
        if case .virtual = mode { return true }
        return false
    }

    /// The current monotonic time.
    public var now: Instant {
        switch mode {
        case .realTime: return monotonicNow()
        case .virtual: return virtualNow
        }
    }

    /// The current wall-clock time.
    public var wallNow: WallTime { wallTime(at: now) }

    /// The wall-clock time that corresponds to a monotonic instant.
    public func wallTime(at instant: Instant) -> WallTime {
        switch mode {
        case .realTime:
            return systemWallNow().adding(instant - monotonicNow())
        case .virtual(let wallStart):
            return wallStart.adding(instant - .zero)
        }
    }

    // MARK: Confinement

    /// What happens when loop-only code runs off the loop: by default a trap naming the place.
    /// Tests of the check itself may replace it (and must put the default back).
    public nonisolated(unsafe) static var confinementViolation: (String, StaticString, UInt) -> Void = {
        message, file, line in
        preconditionFailure(message, file: file, line: line)
    }

    /// Whether the calling thread is the loop's.
    public var inLoop: Bool { owner.load(ordering: .relaxed) == Self.currentThread() }

    /// Traps unless called on the loop's thread, in release builds too: the check is one
    /// relaxed atomic load and `pthread_self()` (`make bench SECTIONS=confinement` measures it).
    @inline(__always)
    public func preconditionInLoop(
        _ what: @autoclosure () -> String = "", file: StaticString = #fileID, line: UInt = #line
    ) {
        if !inLoop {
            let name = what()
            Self.confinementViolation(
                "\(name.isEmpty ? "loop-only code" : name) used off its event loop's thread", file, line)
        }
    }

    private static func currentThread() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    // MARK: Timers

    /// Runs `action` on the loop at `deadline` (or as soon as possible if it has passed).
    @discardableResult
    public func schedule(at deadline: Instant, _ action: @escaping () -> Void) -> TimerID {
        preconditionInLoop("EventLoop.schedule")
        let id = nextID
        nextID += 1
        let timer = Timer(deadline: deadline, id: id, action: action)
        // Keep timers sorted by deadline, then by scheduling order.
        var low = 0
        var high = timers.count
        while low < high {
            let mid = (low + high) / 2
            if timers[mid].deadline <= deadline { low = mid + 1 } else { high = mid }
        }
        timers.insert(timer, at: low)
        return TimerID(value: id)
    }

    /// Runs `action` on the loop after `delay`.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> TimerID {
        schedule(at: now + delay, action)
    }

    /// Cancels a timer; cancelling one that already ran does nothing.
    public func cancel(_ id: TimerID) {
        preconditionInLoop("EventLoop.cancel")
        timers.removeAll { $0.id == id.value }
    }

    /// The number of pending timers (for tests and leftovers checks).
    public var pendingTimerCount: Int {
        preconditionInLoop("EventLoop.pendingTimerCount")
        return timers.count
    }

    // MARK: Cross-thread

    /// Queues `action` to run on the loop. Safe from any thread.
    public func post(_ action: @escaping @Sendable () -> Void) {
        lock.withLock {
            posted.append(action)
            lock.broadcast()
        }
    }

    /// Runs `work` on the loop's worker thread (one job at a time, in order) and then
    /// `completion` with its result on the loop. Virtual time does not move while work is
    /// outstanding, so results are deterministic.
    public func offload<T: Sendable>(
        _ work: @escaping @Sendable () -> T, then completion: @escaping (T) -> Void
    ) {
        preconditionInLoop("EventLoop.offload")
        submit(work, to: worker.submit, counting: \.outstandingWork, then: completion)
    }

    /// Runs `work` on one of the pool's threads (one per core; jobs start in order and run
    /// side by side) and then `completion` with its result on the loop. Counted like
    /// `offload`: virtual time does not move while it is outstanding.
    public func offloadParallel<T: Sendable>(
        _ work: @escaping @Sendable () -> T, then completion: @escaping (T) -> Void
    ) {
        preconditionInLoop("EventLoop.offloadParallel")
        submit(work, to: pool.submit, counting: \.outstandingWork, then: completion)
    }

    /// Threads that run `offloadParallel` work.
    public var parallelThreads: Int { pool.threads }

    /// Runs `work` on `lane`'s own thread (in order, beside the loop's other work) and then
    /// `completion` on the loop. Counted like `offload`: virtual time does not move while it
    /// is outstanding, so tests stay deterministic; in real time nothing waits for it.
    public func offload<T: Sendable>(
        on lane: WorkLane, _ work: @escaping @Sendable () -> T, then completion: @escaping (T) -> Void
    ) {
        preconditionInLoop("EventLoop.offload(on:)")
        submit(work, to: lane.pool.submit, counting: \.outstandingWork, then: completion)
    }

    /// Runs long `work` (library commands: fsck, import, export) on a second worker thread
    /// and then `completion` with its result on the loop. Unlike `offload`, virtual time
    /// keeps moving while it runs (buttons, captures and their saves go on meanwhile); tests
    /// wait for it with `finishLongWork()`. `run` counts it as work in flight.
    public func offloadLong<T: Sendable>(
        _ work: @escaping @Sendable () -> T, then completion: @escaping (T) -> Void
    ) {
        preconditionInLoop("EventLoop.offloadLong")
        submit(work, to: longWorker.submit, counting: \.outstandingLongWork, then: completion)
    }

    /// Runs `work` on `thread`, counted in `counter` (under the lock) while it runs, then
    /// posts `completion` with its result to the loop: the one path for `offload` and
    /// `offloadLong`.
    private func submit<T: Sendable>(
        _ work: @escaping @Sendable () -> T, to thread: (@escaping @Sendable () -> Void) -> Void,
        counting counter: any ReferenceWritableKeyPath<EventLoop, Int> & Sendable,
        then completion: @escaping (T) -> Void
    ) {
        let id = nextID
        nextID += 1
        completions[id] = { value in completion(value as! T) }
        lock.withLock { self[keyPath: counter] += 1 }
        thread { [self] in
            let result = work()
            lock.withLock {
                self[keyPath: counter] -= 1
                posted.append { [self] in
                    let handler = completions.removeValue(forKey: id)
                    handler?(result)
                }
                lock.broadcast()
            }
        }
    }

    /// Virtual time: whether `advance` waits for `offload`/`offloadParallel` work before it
    /// moves time (true, the default, keeps tests deterministic). A test of work that takes
    /// longer than frames (storage that cannot keep up) turns it off, holds its work back
    /// itself, and lets it finish with `finishWork()`.
    public var virtualTimeWaitsForWork: Bool {
        get { lock.withLock { waitsForWork } }
        set { lock.withLock { waitsForWork = newValue } }
    }

    /// Waits (no time passes) until all `offload`/`offloadParallel` work has finished and its
    /// completions ran.
    public func finishWork() {
        preconditionInLoop("EventLoop.finishWork")
        while true {
            drainPosted()
            lock.lock()
            if outstandingWork == 0 && posted.isEmpty {
                lock.unlock()
                return
            }
            if posted.isEmpty { lock.wait() }
            lock.unlock()
        }
    }

    /// Long work submitted and not yet finished.
    public var longWorkInFlight: Int { lock.withLock { outstandingLongWork } }

    /// Waits (no time passes) until all long work has finished and its completions ran.
    public func finishLongWork() {
        while true {
            settle()
            lock.lock()
            if outstandingLongWork == 0 && posted.isEmpty {
                lock.unlock()
                settle()
                return
            }
            if posted.isEmpty { lock.wait() }
            lock.unlock()
        }
    }

    // MARK: Driving

    /// Virtual time: runs everything due up to `now + duration`, in deadline order, waiting
    /// for offloaded work as it goes; leaves the clock at `now + duration`.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Virtual time: runs everything due up to `target`.
    public func advance(to target: Instant) {
        precondition(isVirtual, "advance(by:) needs a virtual-time loop")
        preconditionInLoop("EventLoop.advance")
        while true {
            settle()
            guard let first = timers.first, first.deadline <= target else { break }
            timers.removeFirst()
            if first.deadline > virtualNow { virtualNow = first.deadline }
            first.action()
        }
        if target > virtualNow { virtualNow = target }
        settle()
    }

    /// Virtual time: the calling action keeps the loop's thread for `duration`, as a call that
    /// blocks does on a board: the clock moves on and nothing else runs meanwhile (timers that
    /// fall due run late, after the action). For simulated hardware whose blocking call hangs.
    public func block(for duration: Duration) {
        precondition(isVirtual, "block(for:) needs a virtual-time loop")
        preconditionInLoop("EventLoop.block")
        virtualNow = virtualNow + duration
    }

    /// Runs posted actions and waits for offloaded work until none is left (no time passes).
    public func runUntilIdle() {
        preconditionInLoop("EventLoop.runUntilIdle")
        if isVirtual { advance(by: .zero) } else { settle() }
    }

    /// Runs the loop until `stop()` is called.
    ///
    /// In real time it sleeps until the next timer or posted action. In virtual time it
    /// jumps to the next timer whenever `isBusy()` is true and nothing else is runnable,
    /// and otherwise waits for posted input.
    public func run(isBusy: @escaping () -> Bool = { false }) {
        owner.store(Self.currentThread(), ordering: .relaxed)
        while !isStopped {
            drainPosted()
            if isStopped { break }
            let now = self.now
            if let first = timers.first, first.deadline <= now {
                timers.removeFirst()
                first.action()
                continue
            }
            if isVirtual {
                let (hasPosted, working) = lock.withLock {
                    (!posted.isEmpty, outstandingWork > 0 || outstandingLongWork > 0)
                }
                if hasPosted { continue }
                if !working, isBusy(), let first = timers.first {
                    virtualNow = first.deadline
                    continue
                }
                waitForPosted(until: nil)
            } else {
                waitForPosted(until: timers.first?.deadline)
            }
        }
    }

    /// Makes `run` return after the current action. Safe from any thread.
    public func stop() {
        lock.withLock {
            stopped = true
            lock.broadcast()
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Blocks (no polling) until another thread posts work or CLOCK_MONOTONIC reaches
    /// `realDeadline`, whatever the loop's mode; runs nothing. For code on the loop's thread
    /// that waits for a reader or a driver to post (`runPosted(until:realTimeLimit:)`).
    public func waitForPostedWork(realDeadline: Instant) {
        preconditionInLoop("EventLoop.waitForPostedWork")
        lock.lock()
        if posted.isEmpty { lock.wait(untilMonotonicNanoseconds: realDeadline.nanoseconds) }
        lock.unlock()
    }

    /// Runs posted work until `done()` holds, blocking between posts, or until `limit` of real
    /// time has passed (a guard against a thread that never posts). Virtual time does not
    /// move. Returns whether `done()` held.
    @discardableResult
    public func runPosted(until done: () -> Bool, realTimeLimit limit: Duration) -> Bool {
        let deadline = monotonicNow() + limit
        while true {
            runUntilIdle()
            if done() { return true }
            if monotonicNow() >= deadline { return false }
            waitForPostedWork(realDeadline: deadline)
        }
    }

    private func waitForPosted(until deadline: Instant?) {
        lock.lock()
        if posted.isEmpty && !stopped {
            lock.wait(untilMonotonicNanoseconds: deadline?.nanoseconds)
        }
        lock.unlock()
    }

    /// Runs posted actions and waits for outstanding work, until both are exhausted.
    private func settle() {
        while true {
            drainPosted()
            lock.lock()
            if posted.isEmpty && (outstandingWork == 0 || !waitsForWork) {
                lock.unlock()
                return
            }
            if posted.isEmpty { lock.wait() }
            lock.unlock()
        }
    }

    private func drainPosted() {
        while true {
            let batch: [@Sendable () -> Void] = lock.withLock {
                let batch = posted
                posted.removeAll()
                return batch
            }
            if batch.isEmpty { return }
            for action in batch { action() }
        }
    }
}
