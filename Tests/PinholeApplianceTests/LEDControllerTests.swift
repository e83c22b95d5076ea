// Tests of LED patterns: one-shot flash, counted blinks, steady state restored, shutdown.

import PinholeAppliance
import PinholeCore
import PinholeSim
import XCTest

final class LEDControllerTests: XCTestCase {
    func testFlashThenRestsAtTheSteadyState() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO24"])
        let led = LEDController(loop: loop, line: try gpio.requestOutput(name: "GPIO24", activeLow: false))
        led.play(.flash)
        loop.advance(by: .seconds(1))
        XCTAssertEqual(gpio.history.map { "\($0.value)@\($0.time.nanoseconds / 1_000_000)" }, ["true@0", "false@150"])
    }

    func testErrorCodeBlinksCountTimes() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO25"])
        let led = LEDController(loop: loop, line: try gpio.requestOutput(name: "GPIO25", activeLow: false))
        led.play(.errorCode(3))
        loop.advance(by: .seconds(5))
        XCTAssertEqual(gpio.history.filter(\.value).count, 3)
        XCTAssertEqual(gpio.history.last?.value, false)
    }

    func testSteadyOnIsRestoredAfterAFlash() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO23"])
        let led = LEDController(loop: loop, line: try gpio.requestOutput(name: "GPIO23", activeLow: false))
        led.set(true)
        led.play(BlinkPattern(on: .milliseconds(100), off: .milliseconds(100), count: 2))
        loop.advance(by: .seconds(1))
        XCTAssertTrue(led.isOn)
        led.shutdown()
        XCTAssertFalse(led.isOn)
        XCTAssertEqual(loop.pendingTimerCount, 0)
    }
}
