// A thread of its own for one kind of in-order work (a recording's encoder), driven by EventLoop.offload(on:).

/// One background thread that runs jobs in submission order, apart from the loop's shared
/// workers, so that a slow kind of work (video encoding) never delays another (photo saves).
public final class WorkLane: Sendable {
    let pool = WorkerPool(threads: 1)

    /// Creates a lane; its thread starts with the first job.
    public init() {}

    /// Runs `job` on the lane's thread after the jobs before it, uncounted by any loop (a job
    /// that hangs holds up only this lane): it hands its result back with `EventLoop.post`.
    public func run(_ job: @escaping @Sendable () -> Void) {
        pool.submit(job)
    }
}
