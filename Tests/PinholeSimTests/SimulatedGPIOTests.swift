// Tests of the simulated GPIO chip: bounce, kernel-style debounce, output history, line errors.

import PinholeCore
import PinholeSim
import XCTest

final class SimulatedGPIOTests: XCTestCase {
    func testPressWithBounceDeliversEveryRawEdgeWithoutKernelDebounce() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO17"])
        var edges: [LineEdge] = []
        _ = try gpio.requestInput(InputLineConfig(name: "GPIO17")) { edges.append($0) }
        gpio.press("GPIO17", hold: .milliseconds(100), bounce: 3)
        loop.advance(by: .milliseconds(200))
        // 3 bounces = 6 chatter transitions + the settling edge, on press and on release; the
        // first chatter transition of the release repeats the pressed level and is no edge.
        XCTAssertEqual(edges.filter(\.active).count, 4 + 3)
        XCTAssertEqual(edges.last?.active, false)
        XCTAssertEqual(edges.map(\.sequence), Array(1...UInt64(edges.count)))
    }

    func testKernelDebounceReportsOneEdgeEachWay() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO17"])
        var edges: [LineEdge] = []
        _ = try gpio.requestInput(InputLineConfig(name: "GPIO17", debounce: .milliseconds(5))) {
            edges.append($0)
        }
        gpio.press("GPIO17", hold: .milliseconds(100), bounce: 5)
        loop.advance(by: .milliseconds(300))
        XCTAssertEqual(edges.map(\.active), [true, false])
    }

    func testOutputsAreRecordedWithTheirTimes() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO23"])
        let led = try gpio.requestOutput(name: "GPIO23", activeLow: false)
        try led.set(true)
        loop.advance(by: .milliseconds(40))
        try led.set(false)
        XCTAssertEqual(gpio.history.map(\.value), [true, false])
        XCTAssertEqual(gpio.history.last?.time, Instant.zero + .milliseconds(40))
    }

    func testMissingAndBusyLinesGiveClearErrors() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO23"])
        XCTAssertThrowsError(try gpio.requestOutput(name: "GPIO99", activeLow: false)) { error in
            XCTAssertTrue("\(error)".contains("GPIO99"), "\(error)")
            XCTAssertTrue("\(error)".contains("not found"), "\(error)")
        }
        _ = try gpio.requestOutput(name: "GPIO23", activeLow: false)
        XCTAssertThrowsError(try gpio.requestOutput(name: "GPIO23", activeLow: false)) { error in
            XCTAssertTrue("\(error)".contains("already in use"), "\(error)")
        }
    }

    func testACrashLeavesOutputsWhereTheyWereAndTheNextRequestDrivesThemOff() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO26", "GPIO17"])
        let torch = try gpio.requestOutput(name: "GPIO26", activeLow: false)
        _ = try gpio.requestInput(InputLineConfig(name: "GPIO17")) { _ in }
        try torch.set(true)
        gpio.crash()
        XCTAssertEqual(gpio.outputValue("GPIO26"), true)
        XCTAssertEqual(gpio.outputsOn, ["GPIO26"])
        XCTAssertFalse(gpio.isRequested("GPIO17"), "a dead process holds no line")
        XCTAssertThrowsError(try torch.set(false), "the dead process's handle is gone")
        loop.advance(by: .milliseconds(5))
        _ = try gpio.requestOutput(name: "GPIO26", activeLow: false)
        XCTAssertEqual(gpio.outputValue("GPIO26"), false)
        XCTAssertEqual(gpio.history.last?.time, Instant.zero + .milliseconds(5))
    }

    func testAGracefulReleaseTurnsTheOutputOff() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO23"])
        let led = try gpio.requestOutput(name: "GPIO23", activeLow: false)
        try led.set(true)
        led.release()
        XCTAssertEqual(gpio.outputsOn, [])
        XCTAssertFalse(gpio.isRequested("GPIO23"))
    }
}
