// Runs a real-time loop's posted work while a contract waits for a kernel driver's events.

import PinholeCore

extension EventLoop {
    /// Runs posted work (edges, frames) as it arrives until `done` or `duration` has passed in
    /// real time, then once more.
    func runPosted(for duration: Duration, until done: () -> Bool) {
        runPosted(until: done, realTimeLimit: duration)
        runUntilIdle()
    }
}
