// A camera whose stop hangs for 15 s never holds the loop: buttons, LEDs, the console and a timelapse go on; the camera is reported and restarted.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeConsole
import PinholeCore
import PinholeField
import PinholeSim
import XCTest

final class CameraSessionTests: XCTestCase {
    /// The watchdog restarts a stalled camera whose stop hangs for 15 s. The loop's clock is
    /// where the test put it at every step (a stop called on the loop holds it 15 s: the
    /// simulated camera's blocking stop moves the virtual clock on without running anything).
    /// Meanwhile a torch press lights the torch at once, the console answers `status` with
    /// the camera reported missing (also in `problems` and the log), the timelapse's slots
    /// come on time (failing without frames), and once the stop answers the camera is started
    /// again and the timelapse saves photos.
    func testACameraWhoseStopHangsNeverHoldsTheLoop() throws {
        let (loop, board, gpio, world, cameras, appliance) = try Self.simulatedBoard()
        let back = cameras.specs[0]
        defer { appliance.shutdown() }
        var log: [String] = []
        var saved: [CaptureResult] = []
        appliance.observe { event in
            switch event {
            case .problem(let text), .notice(let text): log.append(text)
            case .saved(let capture): saved.append(capture)
            default: break
            }
        }
        let timelapse = TimelapseController(appliance: appliance, stateFile: nil)
        appliance.timelapse = timelapse
        var timelapseLog: [String] = []
        timelapse.onEvent = { timelapseLog.append($0) }
        try appliance.start()
        let console = LineModeConsole(appliance: appliance, simulation: nil, library: nil) { _ in }
        try appliance.engine.focus.setMode(.manual)
        loop.advance(by: .seconds(1))
        let camera = try XCTUnwrap(cameras.openCamera(back.id))
        _ = try timelapse.start(TimelapsePlan(intervalMs: 2000, count: 30))
        loop.advance(by: .seconds(4))
        XCTAssertEqual(saved.count, 2, "the timelapse runs: \(timelapseLog)")

        world.stopHangs[back.id] = .seconds(15)
        world.stallCameras([back.id])
        // Step through the stall and the hang in 100 ms steps: the loop's clock must be where
        // the step put it every time.
        var hungAt: Instant?
        var now = loop.now
        func step(to target: Instant) {
            while now < target {
                now = now + .milliseconds(100)
                loop.advance(to: now)
                XCTAssertEqual(loop.now, now, "the loop was held by the camera")
                now = loop.now
                if hungAt == nil, camera.isSessionBusy { hungAt = loop.now }
            }
        }
        step(to: now + .seconds(3))
        let hung = try XCTUnwrap(hungAt, "the watchdog's restart is stopping the camera")
        XCTAssertEqual(camera.sessionCommands, ["start", "stop"])
        XCTAssertEqual(camera.starts, 1)

        // A button and its LED during the hang: the torch lights as the press settles.
        step(to: hung + .seconds(1))
        let torch = board.buttons[.torch]!.line
        let pressed = loop.now
        gpio.press(torch, hold: .milliseconds(80), bounce: 0)
        step(to: pressed + .milliseconds(300))
        let lit = try XCTUnwrap(
            gpio.history.first { $0.line == board.outputs[.torch]!.line && $0.value && $0.time >= pressed })
        XCTAssertLessThan(lit.time - pressed, .milliseconds(50))

        // Within the deadline nothing is said; past it the camera is reported, and the
        // console answers at once.
        step(to: hung + appliance.engine.cameraCommandDeadline - .milliseconds(100))
        XCTAssertNil(appliance.cameraMissing)
        step(to: hung + appliance.engine.cameraCommandDeadline)
        let missing = try XCTUnwrap(appliance.cameraMissing)
        XCTAssertTrue(missing.contains("has not answered `stop` for 5 s"), missing)
        XCTAssertTrue(appliance.problems.contains(missing), "\(appliance.problems)")
        XCTAssertTrue(log.contains(missing), "\(log)")
        XCTAssertNotEqual(appliance.outputs[.error]?.showing, "off", "the error LED shows it")
        var answer: String?
        console.submit("status") { answer = $0 }
        XCTAssertTrue(
            answer?.hasPrefix("ok camera missing (camera imx477 has not answered `stop`") == true,
            answer ?? "no answer")

        // The timelapse's slots come on time meanwhile (none missed for a late loop); without
        // frames they fail, each reported.
        step(to: hung + .seconds(14))
        XCTAssertGreaterThanOrEqual(
            timelapseLog.filter { $0.contains("the capture failed") }.count, 3, "\(timelapseLog)")
        XCTAssertGreaterThanOrEqual(
            timelapseLog.filter { $0.hasPrefix("timelapse missed a slot") }.count, 6, "\(timelapseLog)")
        XCTAssertFalse(timelapseLog.contains { $0.contains("the loop was late") }, "\(timelapseLog)")
        XCTAssertEqual(camera.starts, 1, "no start while the stop hangs")

        // The stop answers at 15 s: the camera is started again, and reported so.
        step(to: hung + .seconds(15) + .milliseconds(500))
        XCTAssertEqual(camera.sessionCommands, ["start", "stop", "start"])
        XCTAssertEqual(camera.starts, 2)
        XCTAssertNil(appliance.cameraMissing)
        XCTAssertTrue(log.contains("camera imx477 answered `stop` after 15 s"), "\(log)")
        XCTAssertTrue(log.contains { $0.contains("restarted it") }, "\(log)")
        console.submit("status") { answer = $0 }
        XCTAssertTrue(answer?.hasPrefix("ok camera imx477 (back)") == true, answer ?? "no answer")
        let before = saved.count
        step(to: now + .seconds(4))
        XCTAssertEqual(saved.count, before + 2, "the timelapse saves again: \(timelapseLog)")
        for shot in saved {
            XCTAssertEqual(loop.wallTime(at: shot.pressedAt).secondsSince1970 % 2, 0, "on the grid")
        }
    }

    /// `camera switch`, standby and its wake, and the appliance's shutdown with a camera
    /// whose stop hangs for 15 s: none holds the loop (its clock stays where the test put
    /// it); the switch is answered, and the wake done, once the stop answers.
    func testSwitchStandbyWakeAndShutdownNeverWaitForAHangingStop() throws {
        let (loop, _, _, world, cameras, appliance) = try Self.simulatedBoard()
        let (back, front) = (cameras.specs[0], cameras.specs[1])
        var notices: [String] = []
        appliance.observe { if case .notice(let text) = $0 { notices.append(text) } }
        try appliance.start()
        let console = LineModeConsole(appliance: appliance, simulation: nil, library: nil) { _ in }
        loop.advance(by: .seconds(1))
        world.stopHangs[back.id] = .seconds(15)
        world.stopHangs[front.id] = .seconds(15)

        var answer: String?
        var began = loop.now
        console.submit("camera switch") { answer = $0 }
        XCTAssertEqual(loop.now, began, "the switch did not hold the loop")
        XCTAssertNil(answer, "answered once the new camera streams")
        XCTAssertThrowsError(try appliance.selectCamera(back.id)) { error in
            XCTAssertTrue("\(error)".contains("still answering an earlier command"), "\(error)")
        }
        loop.advance(to: began + .seconds(14))
        XCTAssertNil(answer)
        XCTAssertNotNil(appliance.cameraMissing, "the stop is late: the camera is reported")
        loop.advance(to: began + .seconds(15) + .milliseconds(100))
        XCTAssertEqual(answer, "ok camera \(front.id) front")
        XCTAssertNil(appliance.cameraMissing)

        loop.advance(by: .seconds(1))
        began = loop.now
        XCTAssertTrue(appliance.engine.enterStandby())
        XCTAssertEqual(loop.now, began, "standby did not hold the loop")
        appliance.standby.activity("test")
        XCTAssertEqual(loop.now, began, "the wake did not hold the loop")
        let frames = appliance.engine.framesReceived
        loop.advance(to: began + .seconds(14))
        XCTAssertEqual(appliance.engine.framesReceived, frames, "the wake waits for the stop")
        loop.advance(to: began + .seconds(16))
        XCTAssertTrue(notices.contains("camera woke for test"), "\(notices)")
        XCTAssertGreaterThan(
            try XCTUnwrap(appliance.engine.lastFrame).sensorTimestamp, began + .seconds(15), "frames again")

        began = loop.now
        appliance.shutdown()
        XCTAssertEqual(loop.now, began, "the shutdown did not hold the loop")
        XCTAssertNil(appliance.engine.current)
        loop.advance(by: .seconds(16))
        XCTAssertTrue(try XCTUnwrap(cameras.openCamera(front.id)).isClosed, "closed once the stop answered")
    }

    /// The process's shutdown with a camera whose stop hangs for 30 s: the outputs are off at
    /// once and the loop is never held; the wait ends at its bound (the two commands'
    /// deadlines, 10 s) with a line naming the camera and the command, and a photo taken
    /// before is kept. A stop that answers in 3 s ends the wait then, with nothing to say.
    func testShutdownWaitsABoundedTimeForAHangingStopAndSaysSo() throws {
        let (loop, _, gpio, world, cameras, appliance) = try Self.simulatedBoard()
        let back = cameras.specs[0]
        var saved: [CaptureResult] = []
        appliance.observe { if case .saved(let capture) = $0 { saved.append(capture) } }
        try appliance.start()
        loop.advance(by: .seconds(1))
        appliance.capture()
        loop.advance(by: .seconds(1))
        XCTAssertEqual(saved.count, 1)
        XCTAssertNoThrow(try appliance.setTorch(true))
        XCTAssertFalse(gpio.outputsOn.isEmpty, "the torch is on")
        world.stopHangs[back.id] = .seconds(30)

        let began = loop.now
        var late: String??
        appliance.shutdown(waitingForCameraAtMost: appliance.shutdownCameraWait) { late = .some($0) }
        XCTAssertEqual(loop.now, began, "the shutdown did not hold the loop")
        XCTAssertEqual(gpio.outputsOn, [], "outputs off at once")
        loop.advance(to: began + .milliseconds(9_900))
        XCTAssertTrue(late == nil, "still waiting for the camera")
        loop.advance(to: began + .seconds(10))
        XCTAssertEqual(
            late,
            .some(
                "camera \(back.model) has not answered `stop` for 10 s: exiting without it "
                    + "(the kernel releases the camera when the process ends)"))
        XCTAssertEqual(saved.count, 1, "the photo taken before is kept")

        let (loop2, _, _, world2, cameras2, appliance2) = try Self.simulatedBoard()
        try appliance2.start()
        loop2.advance(by: .seconds(1))
        world2.stopHangs[cameras2.specs[0].id] = .seconds(3)
        let began2 = loop2.now
        var late2: String??
        appliance2.shutdown(waitingForCameraAtMost: appliance2.shutdownCameraWait) { late2 = .some($0) }
        loop2.advance(to: began2 + .milliseconds(2_900))
        XCTAssertTrue(late2 == nil, "waits for the stop")
        loop2.advance(to: began2 + .milliseconds(3_100))
        XCTAssertEqual(late2, .some(nil), "the camera answered: the wait ends with it")
    }

    /// The simulated board with small cameras, not started.
    private static func simulatedBoard() throws -> (
        EventLoop, BoardProfile, SimulatedGPIO, SimWorld, SimulatedCameraProvider, Appliance
    ) {
        let loop = EventLoop.virtual()
        let board = try BuiltInBoards.simulated()
        let gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        var back = SimCameraSpec.back
        back.pixelArraySize = PixelSize(width: 64, height: 48)
        var front = SimCameraSpec.front
        front.pixelArraySize = PixelSize(width: 64, height: 48)
        let world = SimWorld()
        let cameras = SimulatedCameraProvider(loop: loop, world: world, specs: [back, front])
        let appliance = Appliance(
            loop: loop, board: board, gpio: gpio, cameras: cameras, encoder: NullEncoder(),
            store: MemoryStore())
        return (loop, board, gpio, world, cameras, appliance)
    }
}
