// Opening the camera at start with a deadline, on virtual time: a camera hung at open, a failed open retried.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeSim
import XCTest

final class CameraStartupTests: XCTestCase {
    /// A camera that hangs at open leaves `start()` returning at once; it is reported missing
    /// exactly at the deadline (error LED, problem, status) and used once it answers.
    func testACameraHungAtOpenIsReportedMissingAtTheDeadlineAndUsedOnceItAnswers() throws {
        let rig = try ApplianceRig(start: false)
        let appliance = rig.appliance
        var notices: [String] = []
        appliance.observe { if case .notice(let text) = $0 { notices.append(text) } }
        rig.cameras.hangOpens(of: ApplianceRig.smallBack.id)
        try appliance.start()
        XCTAssertTrue(appliance.engine.isOpening)
        XCTAssertNil(appliance.engine.current)
        XCTAssertEqual(rig.cameras.hungOpenCount, 1)
        // Within the deadline nothing is said.
        rig.loop.advance(by: appliance.cameraOpenDeadline - .milliseconds(1))
        XCTAssertNil(appliance.cameraMissing)
        XCTAssertEqual(appliance.problems, [])
        XCTAssertEqual(appliance.outputs[.error]?.showing, "off")
        rig.loop.advance(by: .milliseconds(1))
        let missing = try XCTUnwrap(appliance.cameraMissing)
        XCTAssertTrue(missing.contains("did not open within 10 s"), missing)
        XCTAssertEqual(appliance.problems, [missing])
        XCTAssertEqual(appliance.status().cameraMissing, missing)
        XCTAssertNil(appliance.status().camera)
        XCTAssertNotEqual(appliance.outputs[.error]?.showing, "off", "the error LED shows no camera")
        // A press meanwhile fails cleanly; the appliance keeps running.
        var result: Result<CaptureResult, Error>?
        appliance.capture { result = $0 }
        rig.loop.advance(by: .milliseconds(10))
        guard case .failure(let error)? = result else {
            return XCTFail("capture without a camera: \(String(describing: result))")
        }
        XCTAssertTrue("\(error)".contains("no camera"), "\(error)")
        // The camera answers a minute later: it runs, the problem is over, frames flow.
        rig.loop.advance(by: .seconds(60))
        XCTAssertEqual(
            appliance.problems.count, 2, "the hung open is not retried meanwhile: \(appliance.problems)")
        rig.cameras.endOpenHang(ApplianceRig.smallBack.id)
        XCTAssertEqual(appliance.engine.current?.id, ApplianceRig.smallBack.id)
        XCTAssertFalse(appliance.engine.isOpening)
        XCTAssertNil(appliance.cameraMissing)
        XCTAssertNil(appliance.status().cameraMissing)
        XCTAssertEqual(appliance.outputs[.error]?.showing, "off")
        XCTAssertTrue(notices.contains { $0.hasPrefix("camera imx477 opened after 70 s") }, "\(notices)")
        rig.loop.advance(by: .milliseconds(500))
        XCTAssertGreaterThan(appliance.engine.framesReceived, 0)
        appliance.shutdown()
    }

    /// A failed open is tried again every `cameraRetryInterval`, reported once while it fails
    /// the same way; the camera is used when an attempt succeeds.
    func testAFailedOpenIsRetriedAndReportedOnce() throws {
        let loop = EventLoop.virtual()
        let board = try BuiltInBoards.simulated()
        let gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        let cameras = FailingOpens(
            SimulatedCameraProvider(loop: loop, world: SimWorld(), specs: [ApplianceRig.smallFront]),
            failures: 3)
        let appliance = Appliance(
            loop: loop, board: board, gpio: gpio, cameras: cameras, encoder: NullEncoder(),
            store: MemoryStore())
        try appliance.start()
        XCTAssertEqual(cameras.attempts, 1)
        let missing = try XCTUnwrap(appliance.cameraMissing)
        XCTAssertTrue(missing.contains("sensor did not answer") && missing.contains("every 30 s"), missing)
        XCTAssertEqual(appliance.problems.count, 1)
        loop.advance(by: .seconds(29))
        XCTAssertEqual(cameras.attempts, 1)
        loop.advance(by: .seconds(1))
        XCTAssertEqual(cameras.attempts, 2)
        loop.advance(by: .seconds(30))
        XCTAssertEqual(cameras.attempts, 3)
        XCTAssertNil(appliance.engine.current)
        XCTAssertEqual(
            appliance.problems.count, 1, "the same failure is reported once: \(appliance.problems)")
        loop.advance(by: .seconds(30))
        XCTAssertEqual(cameras.attempts, 4)
        XCTAssertEqual(appliance.engine.current?.id, ApplianceRig.smallFront.id)
        XCTAssertNil(appliance.cameraMissing)
        loop.advance(by: .seconds(31))
        XCTAssertEqual(cameras.attempts, 4, "no retry once the camera runs")
        XCTAssertGreaterThan(appliance.engine.framesReceived, 0)
        appliance.shutdown()
    }

    /// Shut down while the camera hangs at open: when the open finally returns, the camera is
    /// closed again and nothing starts.
    func testAnOpenThatReturnsAfterShutdownIsClosed() throws {
        let rig = try ApplianceRig(start: false)
        rig.cameras.hangOpens(of: ApplianceRig.smallBack.id)
        try rig.appliance.start()
        rig.loop.advance(by: .seconds(15))
        rig.appliance.shutdown()
        XCTAssertNil(rig.appliance.cameraMissing)
        rig.cameras.endOpenHang(ApplianceRig.smallBack.id)
        XCTAssertNil(rig.appliance.engine.current)
        XCTAssertEqual(rig.cameras.openCamera(ApplianceRig.smallBack.id)?.isClosed, true)
        rig.loop.advance(by: .seconds(60))
        XCTAssertEqual(rig.appliance.problems.count, 1, "\(rig.appliance.problems)")
    }
}

/// A provider whose first `failures` opens fail as a sensor that does not answer would.
private final class FailingOpens: CameraProvider {
    let base: SimulatedCameraProvider
    var failures: Int
    private(set) var attempts = 0

    init(_ base: SimulatedCameraProvider, failures: Int) {
        self.base = base
        self.failures = failures
    }

    func cameras() throws -> [CameraInfo] { try base.cameras() }

    func open(id: String) throws -> any CameraDevice {
        attempts += 1
        if attempts <= failures { throw CameraError.failed("the sensor did not answer on i2c") }
        return try base.open(id: id)
    }
}
