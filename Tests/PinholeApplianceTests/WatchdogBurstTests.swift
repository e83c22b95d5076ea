// The watchdog and a camera that delivers frames in bursts with long gaps (vimc under emulation).

import PinholeAppliance
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
}
