// Whether Swift concurrency's jobs run on NIO's event loops in this process (`pinhole web executor`).

import Dispatch
import NIOCore
import NIOPosix
import Synchronization

/// Takes Swift concurrency over onto the server's event loops (as `pinhole run` does before
/// starting the gallery), then runs tasks and reports where their jobs ran: a first job and a
/// job resumed after a suspension on an event loop thread each, and a task started from a loop
/// on that same loop. Run it in a process of its own, before any other Swift concurrency work.
public struct EventLoopExecutorCheck: Sendable, Equatable {
    /// Whether the takeover was installed (the runtime's hook was free).
    public let installed: Bool
    /// Jobs run.
    public let jobs: Int
    /// Jobs that ran on one of the shared group's event loops.
    public let jobsOnLoops: Int
    /// Tasks started from a loop's job.
    public let children: Int
    /// Tasks started from a loop's job that ran on that same loop.
    public let childrenOnTheirLoop: Int

    /// Whether every job ran where the takeover puts it.
    public var passed: Bool {
        installed && jobsOnLoops == jobs && childrenOnTheirLoop == children
    }

    /// One line for the console.
    public var summary: String {
        "executor: takeover \(installed ? "installed" : "NOT installed (the runtime's hook was already set)"); "
            + "\(jobsOnLoops) of \(jobs) jobs ran on NIO's event loops, "
            + "\(childrenOnTheirLoop) of \(children) tasks started on a loop stayed on it: "
            + (passed ? "ok" : "FAILED: Swift concurrency runs on other threads (every request hops threads)")
    }

    /// Installs the takeover and runs `tasks` tasks (each a first job, a job after
    /// `Task.yield()`, and a child task); blocks the calling thread until they are done.
    public static func run(tasks: Int = 8) -> EventLoopExecutorCheck {
        let installed = WebServer.runConcurrencyOnEventLoops()
        let seen = Tally()
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<tasks {
            Task.detached {
                let first = MultiThreadedEventLoopGroup.currentEventLoop
                await Task.yield()
                let resumed = MultiThreadedEventLoopGroup.currentEventLoop
                let child = await Task { MultiThreadedEventLoopGroup.currentEventLoop }.value
                seen.counts.withLock { seen in
                    seen.jobs += 2
                    seen.onLoops += (first == nil ? 0 : 1) + (resumed == nil ? 0 : 1)
                    seen.children += 1
                    if let resumed, let child, resumed === child { seen.stayed += 1 }
                }
                done.signal()
            }
        }
        for _ in 0..<tasks { done.wait() }
        let result = seen.counts.withLock { $0 }
        return EventLoopExecutorCheck(
            installed: installed, jobs: result.jobs, jobsOnLoops: result.onLoops, children: result.children,
            childrenOnTheirLoop: result.stayed)
    }
}

/// Where the check's jobs ran, counted from several threads.
private final class Tally: Sendable {
    let counts = Mutex<(jobs: Int, onLoops: Int, children: Int, stayed: Int)>((0, 0, 0, 0))
}
