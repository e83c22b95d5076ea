// Background threads that run submitted jobs: one, in order, or one per core, side by side.

import PinholeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed set of background threads taking jobs from one queue in submission order (a job
/// starts as soon as a thread is free; with more than one thread jobs may finish out of
/// order, with one they run one at a time, in order).
final class WorkerPool: @unchecked Sendable {
    private let lock = ConditionLock()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false
    /// Threads in the pool.
    let threads: Int
    /// Run on each thread when it starts, before its first job.
    private let threadStart: (@Sendable () -> Void)?

    /// Cores online now (at least 1): the size of the loop's pool.
    static var onlineCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Creates a pool of `threads` threads (at least 1), started on first use; each runs
    /// `threadStart` first.
    init(threads: Int, threadStart: (@Sendable () -> Void)? = nil) {
        self.threads = max(1, threads)
        self.threadStart = threadStart
    }

    /// Queues a job.
    func submit(_ job: @escaping @Sendable () -> Void) {
        lock.withLock {
            jobs.append(job)
            if !started {
                started = true
                for _ in 0..<threads { SystemThread.detach { [self] in loop() } }
            }
            lock.broadcast()
        }
    }

    private func loop() {
        threadStart?()
        while true {
            lock.lock()
            while jobs.isEmpty { lock.wait() }
            let job = jobs.removeFirst()
            lock.unlock()
            job()
        }
    }
}
