// The one thread helper: a pthread running a closure, joinable or detached.

import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread running one closure (`pthread_create`), for blocking work that must not run on
/// the event loop: reading a descriptor, waiting for signals, the loop's worker.
public struct SystemThread: @unchecked Sendable {
    private let handle: pthread_t

    /// Starts a joinable thread running `body`; throws the error `pthread_create` returned.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(Errno) -> SystemThread {
        let box = Unmanaged.passRetained(Body(body))
        var handle = pthread_t()
        let result = pthread_create(
            &handle, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw Errno(rawValue: result)
        }
        return SystemThread(handle: handle)
    }

    /// Starts a detached thread running `body`. A process that cannot start a thread cannot
    /// work at all, so that failure traps with the reason.
    public static func detach(_ body: @escaping @Sendable () -> Void) {
        do {
            try start(body).detach()
        } catch {
            preconditionFailure("cannot start a thread: \(error)")
        }
    }

    /// Waits until the thread's closure has returned (`pthread_join`).
    public func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread end on its own, never joined (`pthread_detach`): for a thread that
    /// must stop itself and so cannot wait for its own end.
    public func detach() {
        pthread_detach(handle)
    }

    /// Whether the calling thread is this one (`pthread_equal` with `pthread_self`).
    public var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }

    private final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
