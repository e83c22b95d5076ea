// The camera contract suite against the simulated cameras (the same suite runs on vimc in the VM).

import PinholeConformance
import PinholeCore
import PinholeSim
import XCTest

final class CameraContractTests: XCTestCase {
    func testEverySimulatedCameraPassesTheCameraContract() throws {
        for spec in [SimCameraSpec.back, .front, .backWithAutofocus, .back.startingAfter(.milliseconds(180))]
        {
            let harness = SimulatedCameraHarness(specs: [spec])
            var report: [String] = []
            let passed = CameraContract(harness: harness).run { report.append($0) }
            XCTAssertTrue(passed, "\(spec.model):\n" + report.joined(separator: "\n"))
            XCTAssertEqual(report.count, 6, report.joined(separator: "\n"))
            XCTAssertEqual(report.filter { $0.hasPrefix("ok ") }.count, 6, report.joined(separator: "\n"))
            XCTAssertEqual(
                reportedCheckNames(report), try declaredVMChecks(prefix: "camera "),
                "tools/vm/guest/hil.checks")
            let camera = harness.cameras.openCamera(spec.id)
            XCTAssertEqual(camera?.isClosed, true, "the suite closes the camera")
            XCTAssertEqual(camera?.isRunning, false)
        }
    }

    func testTheSuiteOpensTheCameraAskedFor() {
        let harness = SimulatedCameraHarness(specs: [.back, .front])
        var report: [String] = []
        let passed = CameraContract(harness: harness, cameraID: SimCameraSpec.front.id).run {
            report.append($0)
        }
        XCTAssertTrue(passed, report.joined(separator: "\n"))
        XCTAssertTrue(report[0].contains("opened ov5647"), report[0])
    }

    /// The suite can fail: a camera that accepts any control silently, and one whose
    /// timestamps are on another clock, are caught.
    func testTheContractCatchesACameraThatBreaksIt() {
        let harness = SimulatedCameraHarness(specs: [.back])
        let broken = BrokenCameraProvider(wrapping: harness.cameras, loop: harness.loop)
        let brokenHarness = SimulatedCameraHarness(provider: broken, loop: harness.loop)
        var report: [String] = []
        let passed = CameraContract(harness: brokenHarness).run { report.append($0) }
        XCTAssertFalse(passed)
        let failures = report.filter { $0.hasPrefix("FAIL ") }
        XCTAssertTrue(
            failures.contains { $0.hasPrefix("FAIL camera frame metadata:") && $0.contains("outside") },
            "\(report)")
        XCTAssertTrue(
            failures.contains { $0.hasPrefix("FAIL camera controls: an unlisted control") }, "\(report)")
    }

    /// The restart step can fail: a camera that keeps one buffer back after each restart (as a
    /// backend that does not requeue a request after a restart would) is caught.
    func testTheContractCatchesACameraThatLosesABufferOnRestart() {
        let harness = SimulatedCameraHarness(specs: [.back])
        let leaky = LeakyRestartProvider(wrapping: harness.cameras)
        var report: [String] = []
        let passed = CameraContract(harness: SimulatedCameraHarness(provider: leaky, loop: harness.loop)).run
        {
            report.append($0)
        }
        XCTAssertFalse(passed)
        XCTAssertEqual(report.filter { $0.hasPrefix("FAIL ") }.count, 1, "\(report)")
        XCTAssertTrue(
            report.contains {
                $0.hasPrefix("FAIL camera restart: after restart 1 the camera lends 3 buffers")
            },
            "\(report)")
        leaky.device?.releaseKept()
    }
}

/// Simulated cameras on a virtual loop, advanced a millisecond at a time.
final class SimulatedCameraHarness: CameraContractHarness {
    let loop: EventLoop
    let provider: any CameraProvider
    let frameTimeout: Duration = .seconds(2)

    init(specs: [SimCameraSpec]) {
        loop = EventLoop.virtual()
        provider = SimulatedCameraProvider(loop: loop, world: SimWorld(), specs: specs)
    }

    init(provider: any CameraProvider, loop: EventLoop) {
        self.loop = loop
        self.provider = provider
    }

    var cameras: SimulatedCameraProvider { provider as! SimulatedCameraProvider }

    func pass(_ duration: Duration, until done: () -> Bool) {
        let deadline = loop.now + duration
        while loop.now < deadline, !done() { loop.advance(by: .milliseconds(1)) }
    }
}

/// A provider whose cameras accept unknown controls and stamp frames on a clock ten
/// seconds ahead (as an unconverted CLOCK_BOOTTIME after a suspend would be).
private final class BrokenCameraProvider: CameraProvider {
    let base: SimulatedCameraProvider
    let loop: EventLoop
    init(wrapping base: SimulatedCameraProvider, loop: EventLoop) {
        self.base = base
        self.loop = loop
    }
    func cameras() throws -> [CameraInfo] { try base.cameras() }
    func open(id: String) throws -> any CameraDevice { BrokenCamera(try base.open(id: id)) }
}

private final class BrokenCamera: CameraDevice {
    let base: any CameraDevice
    init(_ base: any CameraDevice) { self.base = base }
    var info: CameraInfo { base.info }
    func configure(_ request: StreamRequest) throws -> ConfigurationOutcome { try base.configure(request) }
    func start(onFrame: @escaping (any CameraFrame) -> Void) throws {
        try base.start { onFrame(ShiftedFrame($0)) }
    }
    func stop() { base.stop() }
    func setControls(_ controls: [String: ControlValue]) throws {
        try base.setControls(controls.filter { base.info.controls[$0.key] != nil })
    }
    func close() { base.close() }
}

private final class ShiftedFrame: CameraFrame, @unchecked Sendable {
    let base: any CameraFrame
    let metadata: FrameMetadata
    init(_ base: any CameraFrame) {
        self.base = base
        var metadata = base.metadata
        metadata.sensorTimestamp = metadata.sensorTimestamp + .seconds(10)
        self.metadata = metadata
    }
    func stillImage() throws -> RawImage { try base.stillImage() }
    func viewfinderImage() throws -> RawImage? { try base.viewfinderImage() }
    func release() { base.release() }
}

/// A provider whose camera, from its second start on, keeps the first frame of each start.
private final class LeakyRestartProvider: CameraProvider {
    let base: SimulatedCameraProvider
    private(set) var device: LeakyRestartCamera?
    init(wrapping base: SimulatedCameraProvider) { self.base = base }
    func cameras() throws -> [CameraInfo] { try base.cameras() }
    func open(id: String) throws -> any CameraDevice {
        let camera = LeakyRestartCamera(try base.open(id: id))
        device = camera
        return camera
    }
}

private final class LeakyRestartCamera: CameraDevice {
    let base: any CameraDevice
    private var starts = 0
    private var kept: [any CameraFrame] = []
    init(_ base: any CameraDevice) { self.base = base }
    var info: CameraInfo { base.info }
    func configure(_ request: StreamRequest) throws -> ConfigurationOutcome { try base.configure(request) }
    func start(onFrame: @escaping (any CameraFrame) -> Void) throws {
        starts += 1
        var keepNext = starts > 1
        try base.start { [weak self] frame in
            if keepNext {
                keepNext = false
                self?.kept.append(frame)
            } else {
                onFrame(frame)
            }
        }
    }
    func stop() { base.stop() }
    func setControls(_ controls: [String: ControlValue]) throws { try base.setControls(controls) }
    func close() { base.close() }
    func releaseKept() {
        for frame in kept { frame.release() }
        kept.removeAll()
    }
}
