// A thread of its own for one kind of in-order work (a recording's encoder), driven by EventLoop.offload(on:).

/// One background thread that runs jobs in submission order, apart from the loop's shared
/// workers, so that a slow kind of work (video encoding) never delays another (photo saves).
public final class WorkLane: Sendable {
    let pool = WorkerPool(threads: 1)

    /// Creates a lane; its thread starts with the first job.
    public init() {}
}
