// One background thread that runs submitted jobs in order.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let worker = Unmanaged<SerialWorker>.fromOpaque(raw!).takeRetainedValue()
                worker.loop()
                return nil
            }, box.toOpaque())
        precondition(result == 0, "cannot start a worker thread (errno \(result))")
        pthread_detach(thread)
    }

    private func loop() {
        while true {
            lock.lock()
            while jobs.isEmpty { lock.wait(until: nil) }
            let job = jobs.removeFirst()
            lock.unlock()
            job()
        }
    }
}
