// Turns SIGTERM, SIGINT and SIGHUP into an orderly shutdown on the event loop.

#if canImport(Glibc)
    import Glibc
#endif
import PinholeCore
import PinholeSystem

/// Blocks the termination signals in every thread and waits for them on one thread.
enum SignalWatcher {
    /// Call before any other thread starts, so that every thread inherits the mask.
    static func blockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the waiting thread; `handler` runs on the loop with the signal's name.
    static func start(loop: EventLoop, handler: @escaping @Sendable (String) -> Void) {
        SystemThread.detach {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGTERM)
            sigaddset(&set, SIGINT)
            sigaddset(&set, SIGHUP)
            while true {
                var signal: Int32 = 0
                if sigwait(&set, &signal) != 0 { continue }
                let name = signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "SIGHUP"
                loop.post { handler(name) }
            }
        }
    }
}
