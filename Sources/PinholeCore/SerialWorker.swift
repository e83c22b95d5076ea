// One background thread that runs submitted jobs in order.

import PinholeSystem

/// A background thread running jobs one at a time, in submission order.
final class SerialWorker: @unchecked Sendable {
    private let lock = ConditionLock()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false

    /// Queues a job; starts the thread on first use.
    func submit(_ job: @escaping @Sendable () -> Void) {
        lock.withLock {
            jobs.append(job)
            if !started {
                started = true
                startThread()
            }
            lock.broadcast()
        }
    }

    private func startThread() {
        SystemThread.detach { [self] in loop() }
    }

    private func loop() {
        while true {
            lock.lock()
            while jobs.isEmpty { lock.wait() }
            let job = jobs.removeFirst()
            lock.unlock()
            job()
        }
    }
}
