// End to end: `pinhole` moves Swift concurrency onto NIO's event loops (the web server's
// executor takeover), checked in a process of its own so the test process keeps its executor.

import XCTest

final class WebExecutorTests: XCTestCase {
    func testSwiftConcurrencyJobsRunOnTheEventLoopsAndStayOnTheirLoop() throws {
        let run = try PinholeProcess.run(["web", "executor"])
        XCTAssertEqual(run.status, 0, run.output + run.error)
        XCTAssertEqual(
            run.lines,
            [
                "executor: takeover installed; 16 of 16 jobs ran on NIO's event loops, "
                    + "8 of 8 tasks started on a loop stayed on it: ok"
            ])
    }
}
