// Tests of button interpretation: debounce, first-edge timestamps, hold and repeat.

import PinholeAppliance
import PinholeBoard
import PinholeCore
import PinholeSim
import XCTest

final class ButtonInterpreterTests: XCTestCase {
    private func rig(debounce: Duration = .milliseconds(10)) -> (EventLoop, SimulatedGPIO, EventLog) {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO17"])
        let log = EventLog()
        let interpreter = ButtonInterpreter(
            loop: loop, debounce: debounce, holdTime: .milliseconds(800),
            repeatInterval: .milliseconds(250)
        ) { log.events.append($0) }
        log.interpreter = interpreter
        _ = try! gpio.requestInput(InputLineConfig(name: "GPIO17")) { interpreter.edge($0) }
        return (loop, gpio, log)
    }

    func testBounceStormGivesOnePressStampedAtTheFirstEdge() {
        let (loop, gpio, log) = rig()
        loop.advance(by: .milliseconds(7))
        gpio.press("GPIO17", hold: .milliseconds(200), bounce: 8)
        loop.advance(by: .milliseconds(400))
        XCTAssertEqual(log.presses, [Instant.zero + .milliseconds(7)])
        XCTAssertEqual(log.releases, 1)
    }

    func testHoldFiresAtTheHoldTimeThenRepeats() {
        let (loop, gpio, log) = rig()
        gpio.press("GPIO17", hold: .milliseconds(1400), bounce: 0)
        loop.advance(by: .milliseconds(2000))
        let times = log.events.compactMap { event -> Int64? in
            switch event {
            case .held(let at), .repeated(let at, _): return at.nanoseconds / 1_000_000
            default: return nil
            }
        }
        XCTAssertEqual(times, [800, 1050, 1300])
        guard case .released(_, let heldFor)? = log.events.last else { return XCTFail("no release") }
        XCTAssertEqual(heldFor, .milliseconds(1400))
    }

    func testShortGlitchShorterThanDebounceIsIgnored() {
        let (loop, gpio, log) = rig()
        gpio.drive("GPIO17", active: true)
        loop.advance(by: .milliseconds(3))
        gpio.drive("GPIO17", active: false)
        loop.advance(by: .milliseconds(100))
        XCTAssertTrue(log.events.isEmpty, "\(log.events)")
        XCTAssertFalse(log.interpreter!.isPressed)
    }

    func testBounceDeliveredLateByABusyLoopIsStillOnePress() {
        let loop = EventLoop.virtual()
        let log = EventLog()
        let interpreter = ButtonInterpreter(loop: loop, debounce: .milliseconds(10)) { log.events.append($0) }
        func edge(_ active: Bool, atMs ms: Int64, sequence: UInt64) {
            interpreter.edge(
                LineEdge(
                    line: "GPIO17", active: active, timestamp: Instant.zero + .milliseconds(ms),
                    sequence: sequence))
        }
        // The loop was busy: the first edge of the press reaches it 40 ms late, and each
        // bounce edge that followed within 2 ms reaches it in a later batch, with timers run
        // in between.
        loop.advance(by: .milliseconds(50))
        edge(true, atMs: 10, sequence: 1)
        loop.advance(by: .milliseconds(5))
        edge(false, atMs: 11, sequence: 2)
        loop.advance(by: .milliseconds(5))
        edge(true, atMs: 12, sequence: 3)
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.presses, [Instant.zero + .milliseconds(10)])
        XCTAssertEqual(log.releases, 0)
    }

    func testTheLineLevelDecidesWhenEdgeReportsLagFarBehind() {
        let loop = EventLoop.virtual()
        let log = EventLog()
        let interpreter = ButtonInterpreter(loop: loop, debounce: .milliseconds(10)) { log.events.append($0) }
        var lineLevel = false
        interpreter.readLevel = { lineLevel }
        func edge(_ active: Bool, atMs ms: Int64, sequence: UInt64) {
            interpreter.edge(
                LineEdge(
                    line: "GPIO17", active: active, timestamp: Instant.zero + .milliseconds(ms),
                    sequence: sequence))
        }
        // The contact closed at 10 ms with a bounce and settled closed; the reports of the
        // bounce trickle in far apart, long after.
        lineLevel = true
        loop.advance(by: .milliseconds(50))
        edge(true, atMs: 10, sequence: 1)
        loop.advance(by: .milliseconds(30))
        edge(false, atMs: 11, sequence: 2)
        loop.advance(by: .milliseconds(30))
        edge(true, atMs: 12, sequence: 3)
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.presses, [Instant.zero + .milliseconds(10)])
        XCTAssertEqual(log.releases, 0)
        // A real release afterwards is still seen.
        lineLevel = false
        edge(false, atMs: 300, sequence: 4)
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.releases, 1)
    }

    func testNoHoldWhenTheLineIsAlreadyReleasedButItsReportIsLate() {
        let loop = EventLoop.virtual()
        let log = EventLog()
        let interpreter = ButtonInterpreter(
            loop: loop, debounce: .milliseconds(10), holdTime: .milliseconds(800)
        ) { log.events.append($0) }
        var lineLevel = true
        interpreter.readLevel = { lineLevel }
        interpreter.edge(LineEdge(line: "GPIO17", active: true, timestamp: .zero, sequence: 1))
        loop.advance(by: .milliseconds(150))
        lineLevel = false  // released at 150 ms; the report is delayed past the hold time
        loop.advance(by: .milliseconds(1000))
        interpreter.edge(
            LineEdge(
                line: "GPIO17", active: false, timestamp: Instant.zero + .milliseconds(150),
                sequence: 2))
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.presses.count, 1)
        XCTAssertEqual(log.releases, 1)
        XCTAssertFalse(
            log.events.contains { if case .held = $0 { return true } else { return false } }, "\(log.events)")
    }

    func testAWholePressThatReachesTheLoopLateIsStillOnePress() {
        let loop = EventLoop.virtual()
        let log = EventLog()
        let interpreter = ButtonInterpreter(loop: loop, debounce: .milliseconds(10)) { log.events.append($0) }
        interpreter.readLevel = { false }  // the button is up again when the loop looks
        // A 150 ms click with bounce at 100 ms; the loop was blocked (a camera restart) and
        // learns of every edge only at 900 ms, long after the button came up again.
        let edges: [(Bool, Int64)] = [
            (true, 100), (false, 101), (true, 102), (false, 250), (true, 251), (false, 252),
        ]
        loop.advance(by: .milliseconds(900))
        for (index, (active, ms)) in edges.enumerated() {
            interpreter.edge(
                LineEdge(
                    line: "GPIO17", active: active, timestamp: Instant.zero + .milliseconds(ms),
                    sequence: UInt64(index + 1)))
        }
        loop.advance(by: .milliseconds(100))
        XCTAssertEqual(log.presses, [Instant.zero + .milliseconds(100)])
        XCTAssertEqual(log.releases, 1)
        guard case .released(let at, let heldFor)? = log.events.last else { return XCTFail("\(log.events)") }
        XCTAssertEqual(at, Instant.zero + .milliseconds(250))
        XCTAssertEqual(heldFor, .milliseconds(150))
        XCTAssertFalse(log.events.contains { if case .held = $0 { return true } else { return false } })
    }

    func testTwoSeparatePressesAreTwoPresses() {
        let (loop, gpio, log) = rig()
        gpio.press("GPIO17", hold: .milliseconds(50), bounce: 3)
        loop.advance(by: .milliseconds(300))
        gpio.press("GPIO17", hold: .milliseconds(50), bounce: 3)
        loop.advance(by: .milliseconds(300))
        XCTAssertEqual(log.presses.count, 2)
    }
}

final class EventLog {
    var events: [ButtonEvent] = []
    var interpreter: ButtonInterpreter?

    var presses: [Instant] {
        events.compactMap { if case .pressed(let at) = $0 { return at } else { return nil } }
    }

    var releases: Int {
        events.filter { if case .released = $0 { return true } else { return false } }.count
    }
}
