// Tests of chords: torch + shutter held 5 s shuts down safely; letting go early does nothing.

import PinholeAppliance
import PinholeBoard
import PinholeCore
import PinholeSim
import XCTest

final class ButtonChordTests: XCTestCase {
    func testTorchAndShutterHeldFiveSecondsShutsDownWithEveryOutputOff() throws {
        let rig = try ApplianceRig()
        var requests: [(ShutdownRequest, Int64)] = []
        rig.appliance.onShutdownRequest = { requests.append(($0, rig.loop.now.ms)) }
        rig.hold(.torch, bounce: 2)
        rig.loop.advance(by: .milliseconds(300))
        XCTAssertTrue(rig.appliance.torchOn, "the torch press acts before the chord is known")
        let shutterDown = rig.loop.now.ms
        rig.hold(.shutter, bounce: 2)
        rig.loop.advance(by: .seconds(6))

        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?.1, shutterDown + 5000)
        XCTAssertEqual(requests.first?.0.reason, "shutter + torch held 5 s")
        XCTAssertEqual(requests.first?.0.powerOff, false)
        XCTAssertEqual(rig.appliance.burstShotsTaken, 0, "holding the chord must not burst")
        XCTAssertEqual(rig.store.photos.count, 1, "only the shutter's press captured")
        XCTAssertEqual(rig.gpio.outputsOn, [])
        for name in rig.board.lineNames { XCTAssertFalse(rig.gpio.isRequested(name), name) }
    }

    func testLettingGoBeforeTheHoldTimeCancelsTheChord() throws {
        let rig = try ApplianceRig()
        var requested = 0
        rig.appliance.onShutdownRequest = { _ in requested += 1 }
        rig.hold(.shutter)
        rig.hold(.torch)
        rig.loop.advance(by: .seconds(3))
        rig.release(.torch)
        rig.loop.advance(by: .seconds(5))
        rig.release(.shutter)
        rig.loop.advance(by: .seconds(1))
        XCTAssertEqual(requested, 0)
        XCTAssertTrue(rig.gpio.isRequested(rig.line(.shutter)))
        XCTAssertEqual(rig.appliance.burstShotsTaken, 0, "the shutter stays suppressed until it is let go")
    }

    func testChordDetectorFiresOnlyWhenEveryButtonIsDown() {
        let loop = EventLoop.virtual()
        var fired: [Int64] = []
        let detector = ChordDetector(
            loop: loop,
            chords: [
                Chord(action: .shutdown, buttons: [.torch, .shutter], hold: .seconds(2))
            ]
        ) { _ in fired.append(loop.now.ms) }
        detector.handle(.torch, .pressed(at: loop.now))
        loop.advance(by: .seconds(3))
        XCTAssertEqual(fired, [], "one button alone is no chord")
        XCTAssertFalse(detector.suppresses(.torch))
        detector.handle(.shutter, .pressed(at: loop.now))
        XCTAssertTrue(detector.suppresses(.torch))
        loop.advance(by: .seconds(3))
        XCTAssertEqual(fired, [5000])
        detector.handle(.shutter, .released(at: loop.now, heldFor: .seconds(3)))
        XCTAssertFalse(detector.suppresses(.shutter))
        XCTAssertTrue(detector.suppresses(.torch), "until every button of the chord is up")
    }
}
