// Runs a real-time loop's posted work while a contract waits for a kernel driver's events.

import PinholeCore

#if canImport(Glibc)
    import Glibc
#endif

extension EventLoop {
    /// Runs posted work (edges, frames) every millisecond until `done` or `duration` has
    /// passed on the loop's clock, then once more.
    func runPosted(for duration: Duration, until done: () -> Bool) {
        let deadline = now + duration
        while now < deadline {
            runUntilIdle()
            if done() { return }
            usleep(1_000)
        }
        runUntilIdle()
    }
}
