// Swift concurrency's global executor on NIO's shared event loops, set through the runtime's hook.

import CExecutorHook
import NIOCore
import NIOPosix
import Synchronization

/// Runs the jobs Swift concurrency would give Dispatch's threads on
/// `MultiThreadedEventLoopGroup.singleton` instead: a job enqueued on one of its loops stays on
/// that loop (a request's handler runs on the thread that read the request and writes its
/// answer there), any other goes to the next loop. NIO's own
/// `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor` finds the runtime's
/// hook with dlsym, which finds nothing when the runtime is linked statically (the release build
/// and the .deb: its symbols are not exported); this sets the same hook from C, where the
/// reference resolves in either link.
enum EventLoopGlobalExecutor {
    /// The shared group's loops as executors, built once.
    private static let loops: [any NIOSerialEventLoopExecutor] = MultiThreadedEventLoopGroup.singleton
        .makeIterator().compactMap { $0 as? any NIOSerialEventLoopExecutor }

    /// Installs it; true when the hook was free and is now this one (tried once per process).
    static let installed: Bool = {
        guard !loops.isEmpty else { return false }
        return pinhole_install_global_enqueue { raw in
            guard let raw else { return }
            EventLoopGlobalExecutor.enqueue(unsafeBitCast(raw, to: UnownedJob.self))
        } == 1
    }()

    /// Round-robin for jobs enqueued off the loops.
    private static let next = Atomic<Int>(0)

    private static func enqueue(_ job: UnownedJob) {
        let target: any NIOSerialEventLoopExecutor
        if let current = MultiThreadedEventLoopGroup.currentEventLoop,
            let loop = loops.first(where: { $0 === current })
        {
            target = loop
        } else {
            target = loops[(next.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max) % loops.count]
        }
        target.enqueue(ExecutorJob(job))
    }
}
