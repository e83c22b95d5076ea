// Tests that every output is off after shutdown and after a crash at the next start.

import PinholeAppliance
import PinholeBoard
import PinholeCore
import PinholeSim
import XCTest

final class OutputSafetyTests: XCTestCase {
    func testEveryOutputIsOffAfterShutdown() throws {
        let rig = try ApplianceRig()
        try rig.appliance.setTorch(true)
        rig.hold(.halfPress)
        rig.loop.advance(by: .milliseconds(50))
        rig.hold(.shutter)
        rig.loop.advance(by: .milliseconds(20))
        rig.appliance.indicator.show(.error(.captureFailed))
        XCTAssertFalse(rig.gpio.outputsOn.isEmpty, "something is on before the shutdown")
        rig.appliance.shutdown()
        XCTAssertEqual(rig.gpio.outputsOn, [])
        for name in rig.board.lineNames { XCTAssertFalse(rig.gpio.isRequested(name), name) }
        rig.loop.advance(by: .seconds(10))
        XCTAssertEqual(rig.gpio.outputsOn, [], "no pattern comes back on later")
        rig.appliance.shutdown()  // a second shutdown is harmless
    }

    func testACrashedInstanceLeavesTheTorchOnAndTheNextStartTurnsItOff() throws {
        let loop = EventLoop.virtual()
        let board = try BuiltInBoards.simulated()
        let gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        let first = try ApplianceRig(board: board, gpio: gpio, loop: loop)
        try first.appliance.setTorch(true)
        gpio.crash()  // the process dies: no shutdown, lines dropped where they were
        let torch = first.line(OutputFunction.torch)
        XCTAssertEqual(gpio.outputValue(torch), true)

        let second = try ApplianceRig(board: board, gpio: gpio, loop: loop, start: false)
        XCTAssertEqual(gpio.outputValue(torch), true, "still on until the next start")
        let restart = loop.now
        try second.appliance.start()
        XCTAssertEqual(gpio.outputValue(torch), false)
        let offAt = gpio.history.last { $0.line == torch }
        XCTAssertEqual(offAt?.value, false)
        XCTAssertEqual(offAt?.time, restart, "turned off at the start, before anything else")
        XCTAssertEqual(gpio.outputValue(second.line(.status)), true, "then ready")
        _ = first
    }

    func testAStartThatFailsReleasesEveryLineOff() throws {
        let loop = EventLoop.virtual()
        let board = try BuiltInBoards.simulated()
        var names = board.lineNames
        names.removeAll { $0 == board.buttons[.tiltB]!.line }
        let gpio = SimulatedGPIO(loop: loop, lineNames: names)
        XCTAssertThrowsError(try ApplianceRig(board: board, gpio: gpio, loop: loop)) { error in
            XCTAssertTrue("\(error)".contains(board.buttons[.tiltB]!.line), "\(error)")
        }
        XCTAssertEqual(gpio.outputsOn, [])
        for name in names { XCTAssertFalse(gpio.isRequested(name), name) }
    }
}

final class OutputSafetyTurnOffTests: XCTestCase {
    func testTurnAllOffClearsWhatACrashLeftOnAndReportsBusyLines() throws {
        let loop = EventLoop.virtual()
        let board = try BuiltInBoards.simulated()
        let gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        let rig = try ApplianceRig(board: board, gpio: gpio, loop: loop)
        try rig.appliance.setTorch(true)
        gpio.crash()
        let status = board.outputs[.status]!.line
        let holder = try gpio.requestOutput(name: status, activeLow: false)  // another program holds it
        try holder.set(true)

        let result = OutputSafety.turnAllOff(board: board, gpio: gpio)
        XCTAssertEqual(result.off, ["buzzer GPIO12", "capture GPIO24", "error GPIO25", "torch GPIO26"])
        XCTAssertEqual(result.failed.count, 1)
        XCTAssertTrue(
            result.failed.first?.contains("status GPIO23: GPIO line 'GPIO23' is already in use") ?? false,
            "\(result.failed)")
        XCTAssertEqual(gpio.outputsOn, [status], "only the line another program holds")
        for output in board.outputs.values where output.line != status {
            XCTAssertFalse(gpio.isRequested(output.line), output.line)
        }
    }
}
