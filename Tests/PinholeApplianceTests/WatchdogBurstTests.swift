// The watchdog and a camera that delivers frames in bursts with long gaps (vimc under emulation).

import PinholeAppliance
import PinholeCapture
import PinholeCore
import XCTest

final class WatchdogBurstTests: XCTestCase {
    func testABurstyButLiveCameraIsRestartedAtMostOnce() {
        let loop = EventLoop.virtual()
        var stalls: [Duration] = []
        let watchdog = CameraWatchdog(loop: loop) { stalls.append($0) }
        watchdog.start()
        // Eight cycles: three frames 10 ms apart, then 1.5 s of silence.
        for _ in 0..<8 {
            for _ in 0..<3 {
                watchdog.frameArrived()
                loop.advance(by: .milliseconds(10))
            }
            loop.advance(by: .milliseconds(1500))
        }
        // The first long gap is news; after it, the watchdog knows this camera's rhythm.
        XCTAssertLessThanOrEqual(stalls.count, 1, "\(stalls)")
    }

    func testACameraSlowerThanTheTimeoutSettlesInsteadOfRestartingForever() {
        let camera = Self.watched(
            firstFrame: .milliseconds(400), period: .milliseconds(1500), for: .seconds(120))
        XCTAssertLessThanOrEqual(camera.restarts, 2, "restarted \(camera.restarts) times in two minutes")
        XCTAssertGreaterThan(camera.frames, 60)
    }

    func testAWarmingCameraWhoseFirstFramesComeSecondsApartIsNotRestarted() {
        // As vimc after a restart under emulation: the first frame after 4 s, then one every 3 s.
        let camera = Self.watched(firstFrame: .seconds(4), period: .seconds(3), for: .seconds(60))
        XCTAssertEqual(camera.restarts, 0, "a live camera was restarted after its first frame")
        XCTAssertEqual(camera.frames, 19)
    }

    func testADeadCameraIsStillCaughtAfterABurstyStart() {
        let loop = EventLoop.virtual()
        var stalls = 0
        let watchdog = CameraWatchdog(loop: loop) { _ in stalls += 1 }
        watchdog.start()
        for _ in 0..<3 {
            watchdog.frameArrived()
            loop.advance(by: .milliseconds(300))
        }
        loop.advance(by: .seconds(3))
        XCTAssertEqual(stalls, 1)
    }

    /// A camera under a watchdog for `duration` of virtual time. As the engine does, a stall
    /// restarts the camera and the watchdog starts over.
    private static func watched(firstFrame: Duration, period: Duration, for duration: Duration) -> SlowCamera
    {
        let loop = EventLoop.virtual()
        let camera = SlowCamera(loop: loop, firstFrame: firstFrame, period: period)
        let box = WatchdogBox()
        let watchdog = CameraWatchdog(loop: loop) { _ in
            camera.restart()
            box.watchdog?.start()
        }
        box.watchdog = watchdog
        camera.onFrame = { watchdog.frameArrived() }
        camera.restart()
        watchdog.start()
        loop.advance(by: duration)
        return camera
    }
}

/// A camera whose frames come every `period`, the first `firstFrame` after each (re)start;
/// a restart drops the frame in progress, as stopping a real camera does.
final class SlowCamera {
    let loop: EventLoop
    let firstFrame: Duration
    let period: Duration
    var onFrame: () -> Void = {}
    private(set) var restarts = -1
    private(set) var frames = 0
    private var timer: TimerID?

    init(loop: EventLoop, firstFrame: Duration, period: Duration) {
        self.loop = loop
        self.firstFrame = firstFrame
        self.period = period
    }

    func restart() {
        restarts += 1
        if let timer { loop.cancel(timer) }
        schedule(after: firstFrame)
    }

    private func schedule(after delay: Duration) {
        timer = loop.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.frames += 1
            self.onFrame()
            self.schedule(after: self.period)
        }
    }
}

final class WatchdogBox {
    var watchdog: CameraWatchdog?
}
