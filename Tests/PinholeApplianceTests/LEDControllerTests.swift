// Tests of LED patterns: one-shot flash, counted blinks, steady state restored, shutdown.

import PinholeAppliance
import PinholeBoard
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
        XCTAssertEqual(
            gpio.history.map { "\($0.value)@\($0.time.nanoseconds / 1_000_000)" }, ["true@0", "false@150"])
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

final class LEDPatternTests: XCTestCase {
    private func led(_ name: String = "GPIO25") throws -> (EventLoop, SimulatedGPIO, LEDController) {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: [name])
        return (
            loop, gpio, LEDController(loop: loop, line: try gpio.requestOutput(name: name, activeLow: false))
        )
    }

    private func onTimes(_ gpio: SimulatedGPIO) -> [Int64] {
        gpio.history.filter(\.value).map { $0.time.nanoseconds / 1_000_000 }
    }

    func testErrorCodeGroupsArePausedAndCountedThenTheSteadyStateResumes() throws {
        let (loop, gpio, led) = try led()
        led.set(true)
        led.play(.errorCode(3, groups: 2))
        XCTAssertEqual(led.showing, "error-3")
        loop.advance(by: .seconds(10))
        // 200 ms on, 300 ms off, three times; a 1.2 s pause; three more; then steady on again.
        XCTAssertEqual(onTimes(gpio), [0, 500, 1000, 2700, 3200, 3700, 4200])
        XCTAssertEqual(gpio.history.last?.time.nanoseconds, 4_200_000_000)
        XCTAssertTrue(led.isOn)
        XCTAssertEqual(led.showing, "on")
        XCTAssertEqual(loop.pendingTimerCount, 0)
    }

    func testARepeatingSteadyPatternRunsUntilReplaced() throws {
        let (loop, gpio, led) = try led()
        led.setSteady(.pattern(.slow))
        loop.advance(by: .milliseconds(6500))
        XCTAssertEqual(onTimes(gpio), [0, 2000, 4000, 6000])
        led.play(.flash)  // a transient flash, then back to the slow blink
        loop.advance(by: .milliseconds(150))
        XCTAssertEqual(led.showing, "low-storage")
        led.set(false)
        loop.advance(by: .seconds(10))
        XCTAssertFalse(led.isOn)
        XCTAssertEqual(loop.pendingTimerCount, 0)
    }
}

final class LEDStatusIndicatorTests: XCTestCase {
    func testNamedStatusPatternsOnTheSimulatedBoard() throws {
        let store = MemoryStore()
        let rig = try ApplianceRig(store: store)
        let status = rig.appliance.outputs[.status]!
        XCTAssertEqual(status.showing, "on", "ready")

        rig.appliance.capture()
        XCTAssertEqual(status.showing, "busy")
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertEqual(status.showing, "on")
        XCTAssertTrue(rig.history(.capture).contains { $0.hasPrefix("on@") }, "saved flash")
        XCTAssertEqual(rig.history(.buzzer).count, 2, "a click on the buzzer")

        store.setFreeBytes(10 << 20)
        rig.appliance.checkStorage()
        XCTAssertEqual(status.showing, "low-storage")
        rig.appliance.capture()
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertEqual(status.showing, "low-storage", "back to low storage after busy")
        store.setFreeBytes(8 << 30)
        rig.appliance.checkStorage()
        XCTAssertEqual(status.showing, "on")

        rig.appliance.indicator.show(.error(.storage))
        XCTAssertEqual(rig.appliance.outputs[.error]?.showing, "error-4")
        rig.loop.advance(by: .seconds(10))
        XCTAssertEqual(rig.history(.buzzer).count, 2 * 2 + 6, "two clicks, then three beeps for the error")
        rig.appliance.indicator.buzzerFeedback = false
        rig.appliance.capture()
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertEqual(rig.history(.buzzer).count, 10, "a silent camera")
    }

    func testNoCameraShowsErrorCodeTwoUntilReplaced() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["A", "B"])
        let outputs = [
            OutputFunction.status: LEDController(
                loop: loop, line: try gpio.requestOutput(name: "A", activeLow: false)),
            .error: LEDController(loop: loop, line: try gpio.requestOutput(name: "B", activeLow: false)),
        ]
        let indicator = StatusIndicator(outputs: outputs)
        indicator.show(.noCamera)
        loop.advance(by: .seconds(60))
        XCTAssertEqual(outputs[.error]?.showing, "error-2")
        XCTAssertEqual(
            gpio.history.filter { $0.line == "B" && $0.value }.count, 2 * 28, "2 blinks every 2.2 s")
        XCTAssertEqual(outputs[.status]?.isOn, false)
        indicator.show(.ready)
        XCTAssertEqual(outputs[.error]?.showing, "off")
        XCTAssertEqual(outputs[.status]?.isOn, true)
    }
}

final class LEDRestingLevelTests: XCTestCase {
    func testATransientPatternCanSetTheLevelToRestAt() throws {
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: ["GPIO23"])
        let led = LEDController(loop: loop, line: try gpio.requestOutput(name: "GPIO23", activeLow: false))
        led.play(BlinkPattern(on: .milliseconds(100), off: .milliseconds(100), count: 2, after: true))
        loop.advance(by: .seconds(1))
        XCTAssertTrue(led.isOn)
        XCTAssertEqual(led.steady, .on)
        led.play(BlinkPattern(on: .milliseconds(100), off: .milliseconds(100), count: 1))
        loop.advance(by: .seconds(1))
        XCTAssertTrue(led.isOn, "no resting level given: back to the steady state")
    }
}
