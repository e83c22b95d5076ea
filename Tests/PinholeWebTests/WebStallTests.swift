// A live view, event stream, original or archive download whose client stops reading is
// disconnected after the write deadline, on a clock the test moves.

import HTTPTypes
import Hummingbird
import PinholeConfiguration
import PinholeCore
import Synchronization
import XCTest

@testable import PinholeWeb

/// A clock that moves only when the test advances it; says when something starts sleeping.
final class ManualClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: (deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state = Mutex(State())
    /// Called each time a sleep starts (with the deadline still ahead).
    let onSleep = Mutex<(@Sendable () -> Void)?>(nil)

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }
    /// Sleeps not yet over.
    var sleeping: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if state.cancelled.remove(id) != nil { return false }
                    if deadline <= state.now { return true }
                    state.sleepers[id] = (deadline, continuation)
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: onSleep.withLock { $0 }?()
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return (
                        deadline: Instant(offset: .zero),
                        continuation: CheckedContinuation<Void, any Error>?.none
                    )
                }
                return (deadline: sleeper.deadline, continuation: Optional(sleeper.continuation))
            }
            sleeper.continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on and wakes the sleeps that are over.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}

/// A client that reads nothing: every write waits until it is cancelled (as NIO's writer does
/// when the socket's buffers are full).
final class StalledWriter: ResponseBodyWriter, Sendable {
    /// Fulfilled when the first write starts waiting.
    let waiting: XCTestExpectation
    private let writes = Atomic<Int>(0)
    let cancelledWrites = Atomic<Int>(0)

    init(_ waiting: XCTestExpectation) {
        self.waiting = waiting
    }

    func write(_ buffer: ByteBuffer) async throws {
        if writes.add(1, ordering: .relaxed).newValue == 1 { waiting.fulfill() }
        let (never, keep) = AsyncStream<Void>.makeStream()
        for await _ in never {}  // ends when the write's task is cancelled
        keep.finish()
        cancelledWrites.add(1, ordering: .relaxed)
        throw CancellationError()
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

final class WebStallTests: WebTestCase {
    /// Routes whose write deadline is 10 s on `manual`.
    func routes(_ backend: FakeWebBackend, clock manual: ManualClock) -> WebRoutes {
        let clock = self.clock
        return WebRoutes(
            backend: backend, sessions: WebSessions(lifetime: .seconds(3600), now: { clock.now }), liveFPS: 5,
            secure: false, stallLimit: .seconds(10), clock: manual)
    }

    /// Writes `response` to a client that reads nothing; the clock passes 9 s (still connected)
    /// then 10 s: the answer ends with `StalledClientError` and its write was cancelled.
    func assertDisconnectedWhenStalled(_ response: Response, clock: ManualClock) async throws {
        let writer = StalledWriter(expectation(description: "the first write waits"))
        let deadlineSet = expectation(description: "a deadline is set on the write")
        deadlineSet.assertForOverFulfill = false
        clock.onSleep.withLock { $0 = { deadlineSet.fulfill() } }
        let answer = Task { () -> String in
            do {
                try await response.body.write(writer)
                return "finished"
            } catch { return "\(error)" }
        }
        // A hang guard only: both happen at once when the deadline is there.
        await fulfillment(of: [writer.waiting, deadlineSet], timeout: 60)
        clock.advance(by: .seconds(9))
        guard clock.sleeping == 1 else {
            XCTFail("no deadline waits on the write")
            answer.cancel()
            return
        }
        XCTAssertEqual(writer.cancelledWrites.load(ordering: .relaxed), 0)
        clock.advance(by: .seconds(1))
        let outcome = await answer.value
        XCTAssertEqual(outcome, "\(StalledClientError(waited: .seconds(10)))")
        XCTAssertEqual(writer.cancelledWrites.load(ordering: .relaxed), 1, "the waiting write was given up")
    }

    func testALiveViewWhoseClientStopsReadingIsDisconnectedAndFreesItsSlot() async throws {
        let manual = ManualClock()
        let frame = WebFrame(jpeg: library.bytes, rotation: 0, sequence: 1)
        let routes = routes(FakeWebBackend(library: library, frame: frame), clock: manual)
        let before = liveViewers.load(ordering: .relaxed)
        let response = try routes.liveView()
        XCTAssertEqual(liveViewers.load(ordering: .relaxed), before + 1)
        try await assertDisconnectedWhenStalled(response, clock: manual)
        XCTAssertEqual(liveViewers.load(ordering: .relaxed), before, "the live view's slot is free again")
    }

    func testAnEventStreamWhoseClientStopsReadingIsDisconnected() async throws {
        let manual = ManualClock()
        let routes = routes(FakeWebBackend(library: library), clock: manual)
        try await assertDisconnectedWhenStalled(routes.events(), clock: manual)
    }

    /// A GET request for `path` (with `range` as its Range header).
    func request(_ path: String, range: String? = nil) -> Request {
        var head = HTTPRequest(method: .get, scheme: "http", authority: "camera.local", path: path)
        if let range { head.headerFields[.range] = range }
        return Request(head: head, body: RequestBody(buffer: ByteBuffer()))
    }

    func testAnOriginalDownloadWhoseClientStopsReadingIsDisconnected() async throws {
        let manual = ManualClock()
        let routes = routes(FakeWebBackend(library: library), clock: manual)
        let id = library.ids[0]
        let response = try await routes.original(id, request: request("/photo/\(id)/original"))
        XCTAssertEqual(response.status, .ok)
        try await assertDisconnectedWhenStalled(response, clock: manual)
    }

    func testARangeOfAnOriginalWhoseClientStopsReadingIsDisconnected() async throws {
        let manual = ManualClock()
        let routes = routes(FakeWebBackend(library: library), clock: manual)
        let id = library.ids[1]
        let response = try await routes.original(
            id, request: request("/photo/\(id)/original", range: "bytes=100-"))
        XCTAssertEqual(response.status, .partialContent)
        try await assertDisconnectedWhenStalled(response, clock: manual)
    }

    func testAnArchiveWhoseClientStopsReadingIsDisconnected() async throws {
        let manual = ManualClock()
        let routes = routes(FakeWebBackend(library: library), clock: manual)
        let response = try await routes.archive(ids: Array(library.ids.prefix(3)))
        try await assertDisconnectedWhenStalled(response, clock: manual)
    }

    func testTheStallTimeoutIsReadWithItsBoundsAndDefault() throws {
        XCTAssertEqual(try Configuration.parse("", file: "p.toml").web.stallTimeoutSeconds, 10)
        let set = try Configuration.parse(
            "[web]\nlisten = \"127.0.0.1:8080\"\nstall_timeout_s = 30\n", file: "p.toml")
        XCTAssertEqual(set.web.stallTimeoutSeconds, 30)
        for bad in ["0", "601", "-5", "\"10 s\"", "2.5"] {
            XCTAssertThrowsError(
                try Configuration.parse(
                    "[web]\nlisten = \"127.0.0.1:8080\"\nstall_timeout_s = \(bad)\n", file: "p.toml")
            ) {
                XCTAssertTrue("\($0)".contains("p.toml:3"), "\($0)")
                XCTAssertTrue("\($0)".contains("stall_timeout_s"), "\($0)")
            }
        }
    }
}
