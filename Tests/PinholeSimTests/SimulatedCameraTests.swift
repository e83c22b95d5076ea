// Tests of the simulated camera: frame timing, exposure model, lens model, controls, buffers.

import PinholeCore
import PinholeSim
import XCTest

final class SimulatedCameraTests: XCTestCase {
    private func start(_ spec: SimCameraSpec = .back, world: SimWorld = SimWorld())
        -> (EventLoop, any CameraDevice, FrameLog)
    {
        let loop = EventLoop.virtual()
        let provider = SimulatedCameraProvider(loop: loop, world: world, specs: [spec])
        let camera = try! provider.open(id: spec.id)
        let log = FrameLog()
        log.camera = camera
        try! camera.start { frame in
            log.frames.append(frame)
            if log.keep == false { frame.release() }
        }
        return (loop, camera, log)
    }

    func testFramesArriveEveryPeriodStampedWithTheStartOfExposure() {
        let (loop, _, log) = start()
        loop.advance(by: .milliseconds(100))
        let stamps = log.frames.map { $0.metadata.sensorTimestamp.nanoseconds }
        XCTAssertEqual(stamps, [0, 33_333_000, 66_666_000])
        XCTAssertEqual(log.frames.map(\.metadata.sequence), [0, 1, 2])
    }

    func testAutoExposureConvergesToMidGreyAndFollowsTheLight() throws {
        let world = SimWorld()
        let (loop, _, log) = start(world: world)
        loop.advance(by: .milliseconds(500))
        let bright = try meanLuma(log.frames.last!)
        XCTAssertTrue((90...130).contains(bright), "mean luma \(bright)")
        world.setLux(20)
        loop.advance(by: .milliseconds(500))
        let dark = log.frames.last!.metadata
        XCTAssertGreaterThan(dark.totalGain, 4, "AE raises the gain in the dark")
        XCTAssertTrue((80...140).contains(try meanLuma(log.frames.last!)))
    }

    func testManualExposureIsHonoured() throws {
        let (loop, camera, log) = start()
        try camera.setControls([
            "AeEnable": .bool(false), "ExposureTime": .int(4000), "AnalogueGain": .double(2),
        ])
        loop.advance(by: .milliseconds(100))
        let metadata = log.frames.last!.metadata
        XCTAssertEqual(metadata.exposureTime, .microseconds(4000))
        XCTAssertEqual(metadata.analogueGain, 2)
    }

    func testFocusOnAnObjectSharpensIt() throws {
        // The chart is at 0.4 m (2.5 dioptres) in the lower right.
        let (loop, camera, log) = start()
        try camera.setControls(["LensPosition": .double(2.5)])
        loop.advance(by: .milliseconds(300))
        let focused = try contrast(log.frames.last!, x: 0.7...0.9, y: 0.6...0.85)
        try camera.setControls(["LensPosition": .double(0)])
        loop.advance(by: .milliseconds(300))
        let blurred = try contrast(log.frames.last!, x: 0.7...0.9, y: 0.6...0.85)
        XCTAssertEqual(log.frames.last!.metadata.lensPosition, 0)
        XCTAssertGreaterThan(focused, blurred * 2, "focused \(focused) vs blurred \(blurred)")
    }

    func testUnsupportedAndOutOfRangeControlsAreErrors() {
        let (_, front, _) = start(.front)
        XCTAssertThrowsError(try front.setControls(["LensPosition": .double(1)])) { error in
            XCTAssertEqual(error as? CameraError, .unsupportedControl("LensPosition", camera: "ov5647"))
        }
        let (_, back, _) = start()
        XCTAssertThrowsError(try back.setControls(["AnalogueGain": .double(99)])) { error in
            XCTAssertTrue("\(error)".contains("outside"), "\(error)")
        }
    }

    func testHeldBuffersMakeTheCameraDropFrames() {
        let loop = EventLoop.virtual()
        let provider = SimulatedCameraProvider(loop: loop, world: SimWorld(), specs: [.back])
        let camera = try! provider.open(id: SimCameraSpec.back.id) as! SimulatedCamera
        var held: [any CameraFrame] = []
        try! camera.start { held.append($0) }
        loop.advance(by: .milliseconds(300))
        XCTAssertEqual(held.count, camera.bufferCount)
        XCTAssertGreaterThan(camera.droppedFrames, 0)
        held.forEach { $0.release() }
        loop.advance(by: .milliseconds(100))
        XCTAssertGreaterThan(held.count, camera.bufferCount)
    }

    func testALateLoopDoesNotSlowTheSensorDown() {
        let loop = EventLoop.virtual()
        let provider = SimulatedCameraProvider(loop: loop, world: SimWorld(), specs: [.back])
        let camera = try! provider.open(id: SimCameraSpec.back.id) as! SimulatedCamera
        var stamps: [Int64] = []
        try! camera.start { frame in
            stamps.append(frame.metadata.sensorTimestamp.nanoseconds)
            // Every frame keeps the loop 20 ms (a busy machine): its timers run late.
            loop.block(for: .milliseconds(20))
            frame.release()
        }
        loop.advance(by: .seconds(1))
        XCTAssertEqual(stamps, (0..<30).map { Int64($0) * 33_333_000 })
        XCTAssertEqual(camera.droppedFrames, 0)
    }

    func testALoopStalledLongerThanTheBuffersLosesTheFramesBetween() {
        let loop = EventLoop.virtual()
        let provider = SimulatedCameraProvider(loop: loop, world: SimWorld(), specs: [.back])
        let camera = try! provider.open(id: SimCameraSpec.back.id) as! SimulatedCamera
        var frames: [FrameMetadata] = []
        try! camera.start { frame in
            frames.append(frame.metadata)
            if frames.count == 3 { loop.block(for: .seconds(1)) }
            frame.release()
        }
        loop.advance(by: .seconds(2))
        let sequences = frames.map(\.sequence)
        XCTAssertEqual(camera.droppedFrames, Int(sequences.last! + 1) - frames.count)
        XCTAssertGreaterThan(camera.droppedFrames, 20)
        // After the stall the sensor runs on from the stall's end, a period apart again.
        let after = frames.drop { $0.sequence <= 2 }.map { $0.sensorTimestamp.nanoseconds }
        XCTAssertGreaterThanOrEqual(after.first ?? 0, 1_066_666_000)
        XCTAssertEqual(Set(zip(after.dropFirst(), after).map { $0 - $1 }), [33_333_000])
    }

    func testConfigurationIsValidatedAndAdjusted() throws {
        let (_, camera, _) = start()
        let outcome = try camera.configure(
            StreamRequest(
                stillSize: PixelSize(width: 5000, height: 4000),
                stillFormat: .rgb888))
        guard case .adjusted(let used, let notes) = outcome else { return XCTFail("expected adjusted") }
        XCTAssertEqual(used.stillSize, PixelSize(width: 4056, height: 3040))
        XCTAssertEqual(used.stillFormat, .yuv420)
        XCTAssertEqual(notes.count, 2)
        XCTAssertEqual(
            try camera.configure(StreamRequest(stillSize: PixelSize(width: 4056, height: 3040))),
            .valid(StreamRequest(stillSize: PixelSize(width: 4056, height: 3040))))
    }

    // MARK: Helpers

    private func meanLuma(_ frame: any CameraFrame) throws -> Double {
        let image = try XCTUnwrap(try frame.viewfinderImage())
        let y = image.planes[0].bytes
        return Double(y.reduce(0) { $0 + Int($1) }) / Double(y.count)
    }

    private func contrast(_ frame: any CameraFrame, x: ClosedRange<Double>, y: ClosedRange<Double>) throws
        -> Double
    {
        let image = try XCTUnwrap(try frame.viewfinderImage())
        let plane = image.planes[0]
        var sum = 0
        let rows = Int(y.lowerBound * Double(image.height))..<Int(y.upperBound * Double(image.height))
        let columns = Int(x.lowerBound * Double(image.width))..<Int(x.upperBound * Double(image.width)) - 1
        for row in rows {
            for column in columns {
                let a = Int(plane.bytes[row * plane.stride + column])
                let b = Int(plane.bytes[row * plane.stride + column + 1])
                sum += abs(a - b)
            }
        }
        return Double(sum) / Double(rows.count * columns.count)
    }
}

final class FrameLog {
    var camera: (any CameraDevice)?
    var frames: [any CameraFrame] = []
    var keep = false
}
