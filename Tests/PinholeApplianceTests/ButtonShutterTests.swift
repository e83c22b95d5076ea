// Tests of the physical shutter on the simulated board: bounce, two stages, burst on hold.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeSim
import XCTest

final class ButtonShutterTests: XCTestCase {
    private func saved(_ rig: ApplianceRig) -> [CaptureResult] {
        var results: [CaptureResult] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { results.append(capture) } }
        return results
    }

    func testBounceStormGivesOnePressAndOnePhotoStampedAtTheFirstEdge() throws {
        let rig = try ApplianceRig()
        var pressedAt: [Instant] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { pressedAt.append(capture.pressedAt) } }
        let firstEdge = rig.loop.now
        rig.hold(.shutter, bounce: 8)
        rig.loop.advance(by: .milliseconds(100))
        rig.release(.shutter, bounce: 8)
        rig.loop.advance(by: .milliseconds(500))
        let presses = rig.events(.shutter).filter {
            if case .pressed = $0 { return true } else { return false }
        }
        XCTAssertEqual(presses, [.pressed(at: firstEdge)])
        XCTAssertEqual(rig.store.photos.count, 1)
        XCTAssertEqual(pressedAt, [firstEdge])
    }

    func testHoldingTheFullPressBurstsFromTheHoldTimeUntilTheRelease() throws {
        let rig = try ApplianceRig()
        var pressedAt: [Int64] = []
        rig.appliance.observe { if case .saved(let capture) = $0 { pressedAt.append(capture.pressedAt.ms) } }
        let start = rig.loop.now.ms
        rig.hold(.shutter)
        rig.loop.advance(by: .milliseconds(1400))
        rig.release(.shutter)
        rig.loop.advance(by: .milliseconds(500))
        // The press, then from the hold at 800 ms every frame until the release at 1400 ms
        // (the frames of BurstTests; 33 ms apart here).
        XCTAssertEqual(pressedAt.first.map { $0 - start }, 0)
        XCTAssertEqual(Set(pressedAt.dropFirst().map { $0 - start }), [800])
        XCTAssertGreaterThanOrEqual(pressedAt.count - 1, 17)
        XCTAssertEqual(rig.appliance.burstShotsTaken, pressedAt.count - 1)
        XCTAssertEqual(rig.appliance.burstSkipped, 0)
        XCTAssertFalse(rig.appliance.shutter.isBursting)
    }

    func testHalfPressLocksFullPressCapturesAndLettingGoUnlocks() throws {
        let rig = try ApplianceRig()
        rig.hold(.halfPress, bounce: 3)
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertTrue(rig.appliance.shutter.locked)
        XCTAssertEqual(rig.store.photos.count, 0, "a half press takes no photo")
        XCTAssertEqual(rig.gpio.outputValue(rig.line(.capture)), true, "focus-lock light on")

        rig.hold(.shutter, bounce: 3)
        rig.loop.advance(by: .milliseconds(100))
        rig.release(.shutter, bounce: 3)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertEqual(rig.store.photos.count, 1)
        XCTAssertTrue(rig.appliance.shutter.locked, "still locked while the half press is held")

        rig.release(.halfPress)
        rig.loop.advance(by: .milliseconds(100))
        XCTAssertFalse(rig.appliance.shutter.locked)
        XCTAssertEqual(rig.gpio.outputValue(rig.line(.capture)), false)
    }

    func testTwoStageStateMachineAlone() {
        var shutter = TwoStageShutter()
        let t0 = Instant.zero + .seconds(1)
        XCTAssertEqual(shutter.fullPress(.pressed(at: t0)), [.capture(at: t0)], "single stage: no lock")
        XCTAssertEqual(
            shutter.fullPress(.held(at: t0 + .milliseconds(800))),
            [.burst(at: t0 + .milliseconds(800), shot: 1)])
        XCTAssertEqual(
            shutter.fullPress(.released(at: t0 + .seconds(1), heldFor: .seconds(1))), [.burstEnded(shots: 1)])
        XCTAssertEqual(shutter.halfPress(.pressed(at: t0)), [.lock])
        XCTAssertEqual(shutter.halfPress(.pressed(at: t0)), [], "already locked")
        XCTAssertEqual(shutter.fullPress(.pressed(at: t0)), [.capture(at: t0)])
        XCTAssertEqual(shutter.halfPress(.released(at: t0, heldFor: .zero)), [], "full press still down")
        XCTAssertEqual(shutter.fullPress(.released(at: t0, heldFor: .zero)), [.unlock])
    }
}
