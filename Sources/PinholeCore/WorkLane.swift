// A thread of its own for one kind of in-order work (a recording's encoder), driven by EventLoop.offload(on:).

import PinholeSystem
import SystemPackage

/// One background thread that runs jobs in submission order, apart from the loop's shared
/// workers, so that a slow kind of work (video encoding) never delays another (photo saves).
public final class WorkLane: Sendable {
    let pool: WorkerPool
    private let priority: PriorityRecord

    /// Creates a lane; its thread starts with the first job.
    public init() {
        priority = PriorityRecord()
        pool = WorkerPool(threads: 1)
    }

    /// Creates a lane whose thread runs at nice `niceness`, and so do the threads its jobs
    /// start (an encoder's own threads): for work with a deadline, which other processes'
    /// work must not starve. Where the process may not (no CAP_SYS_NICE, RLIMIT_NICE too
    /// low) the thread keeps the process's priority and `priorityProblem` says so.
    public init(niceness: Int32) {
        let priority = PriorityRecord()
        self.priority = priority
        pool = WorkerPool(threads: 1) {
            do throws(Errno) {
                try ThreadPriority.setNiceness(niceness)
            } catch {
                priority.set(
                    "runs at nice \(ThreadPriority.niceness), not \(niceness): \(error)"
                        + " (allow it with CAP_SYS_NICE or an RLIMIT_NICE down to \(niceness))")
            }
        }
    }

    /// Why the lane's thread does not run at the priority it was created with; nil when it
    /// does, when none was asked, or before its first job.
    public var priorityProblem: String? { priority.problem }

    /// Runs `job` on the lane's thread after the jobs before it, uncounted by any loop (a job
    /// that hangs holds up only this lane): it hands its result back with `EventLoop.post`.
    public func run(_ job: @escaping @Sendable () -> Void) {
        pool.submit(job)
    }
}

/// What the lane's thread found when it set its priority (written on that thread, read anywhere).
private final class PriorityRecord: @unchecked Sendable {
    private let lock = ConditionLock()
    private var text: String?

    var problem: String? { lock.withLock { text } }

    func set(_ problem: String) { lock.withLock { text = problem } }
}
