// A lane's thread runs at the nice value it was created with, and the threads it starts inherit it.

import PinholeCore
import PinholeSystem
import XCTest

final class WorkLaneTests: XCTestCase {
    /// Runs `body` on the lane and waits for its answer (a blocking wait on a condition, no sleep).
    private func onLane(_ lane: WorkLane, _ body: @escaping @Sendable () -> Int32) -> Int32 {
        let answer = Answer()
        lane.run { answer.put(body()) }
        return answer.take()
    }

    /// Lowering a thread's priority is always allowed: the lane asks one step below this thread's.
    private var lower: Int32 { min(19, ThreadPriority.niceness + 1) }

    func testTheLanesThreadRunsAtTheNiceValueAsked() {
        let asked = lower
        let lane = WorkLane(niceness: asked)
        XCTAssertEqual(onLane(lane) { ThreadPriority.niceness }, asked)
        XCTAssertNil(lane.priorityProblem)
    }

    func testAThreadAJobStartsInheritsTheLanesNiceValue() throws {
        let asked = lower
        let lane = WorkLane(niceness: asked)
        let inherited = onLane(lane) {
            let answer = Answer()
            guard let thread = try? SystemThread.start({ answer.put(ThreadPriority.niceness) }) else {
                return 99
            }
            thread.join()
            return answer.take()
        }
        XCTAssertEqual(inherited, asked)
    }

    func testALaneWithoutANiceValueKeepsItsCreatorsPriority() {
        let here = ThreadPriority.niceness
        XCTAssertEqual(onLane(WorkLane()) { ThreadPriority.niceness }, here)
    }
}

/// One value handed from another thread.
private final class Answer: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Int32?

    func put(_ value: Int32) {
        lock.lock()
        self.value = value
        lock.broadcast()
        lock.unlock()
    }

    func take() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        while value == nil { lock.wait() }
        return value ?? 0
    }
}
